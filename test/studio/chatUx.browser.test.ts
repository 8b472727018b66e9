/**
 * What a user hit in the studio's chat, in Chromium: Enter sends and Shift+Enter adds a line; the
 * chat list scrolls on its own with 40 chats, is titled, searched, paged and deletable; a view
 * starts at its top; answers render markdown safely; a sub-agent's error is drawn as an error.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  closeBrowser,
  collectErrors,
  openBrowser,
  screenshot,
  startStudioServer,
} from './browser.js';

const skip = browserSkipReason();

describe.skipIf(skip !== null)('studio chat, second edition', { timeout: 90_000 }, () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let studio: Awaited<ReturnType<typeof startStudioServer>>;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    studio = await startStudioServer();
    // 40 stored chats of the demo agency, titled "Question 0" … "Question 39", the last newest.
    for (let i = 0; i < 40; i += 1) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      await studio.store.append(
        `seed${i}__Coordinator__USER`,
        [
          {
            id: `i${i}`,
            item: { role: 'user', content: `Question ${i} about <b>tides</b>` },
            meta: { agent: 'Coordinator', createdAt: at } as never,
          },
        ],
        { expectedVersion: 0, chatId: `seed${i}` },
      );
    }
    const meta = (agent: string, callerAgent: string | null) =>
      ({
        agent,
        callerAgent,
        runId: 'r',
        parentRunId: null,
        createdAt: new Date(0).toISOString(),
      }) as never;
    await studio.store.append(
      'md__Coordinator__USER',
      [
        {
          id: 'u',
          item: { role: 'user', content: 'Show markdown' },
          meta: meta('Coordinator', null),
        },
        {
          id: 'a',
          item: {
            role: 'assistant',
            status: 'completed',
            content: [
              {
                type: 'output_text',
                text: 'A **bold** claim.\n\n- one\n- two\n\n```\nconst x = 1;\n```\n\n<img src=x onerror="window.__pwned=1"> [bad](javascript:alert(1)) [good](https://example.com)',
              },
            ],
          },
          meta: meta('Coordinator', null),
        },
      ],
      { expectedVersion: 0, chatId: 'md' },
    );
    await studio.store.append(
      'md__Coordinator__Researcher',
      [
        {
          id: 'p',
          item: { role: 'user', content: 'Find facts' },
          meta: meta('Researcher', 'Coordinator'),
        },
      ],
      { expectedVersion: 0, chatId: 'md' },
    );
    browser = await openBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    errors = collectErrors(page);
  }, 60_000);

  afterAll(async () => {
    if (browser) await closeBrowser(browser);
    if (studio) await studio.close();
  });

  const open = async (hash: string) => {
    await page.goto(`${studio.server.url}/${hash}`);
    await page.waitForLoadState('networkidle');
  };

  it('keeps the page as tall as the window with 40 chats; the list scrolls and pages to every chat', async () => {
    await open('#/agencies?agency=demo');
    const entries = page.getByTestId('chat-entry');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(30);
    const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
    expect(height).toBeLessThanOrEqual(800);
    const scrolls = (await page
      .getByTestId('chat-list')
      .evaluate((list) => list.scrollHeight > list.clientHeight)) as boolean;
    expect(scrolls).toBe(true);
    // Titled by the first message, its HTML shown as text.
    expect(await page.getByText('Question 39 about <b>tides</b>').count()).toBe(1);
    // What the page asked the server from here on, for the message if the second page never shows.
    const traffic: string[] = [];
    const started = Date.now();
    page.on('request', (r) => traffic.push(`+${Date.now() - started}ms ${r.method()} ${r.url()}`));
    page.on('requestfinished', (r) => traffic.push(`+${Date.now() - started}ms done ${r.url()}`));
    page.on('requestfailed', (r) => traffic.push(`+${Date.now() - started}ms failed ${r.url()}`));
    await page.getByTestId('more-chats').click();
    // The second page, or the list's error line (its text then fails the check below).
    await page
      .waitForFunction(
        "document.querySelectorAll('[data-testid=chat-entry]').length === 41 || document.querySelector('.error-text')",
        undefined,
        { timeout: 20_000 },
      )
      .catch(async (error: unknown) => {
        const count = await entries.count();
        const more = await page.getByTestId('more-chats').count();
        throw new Error(
          `${String(error)}\nentries ${count}, load-more buttons ${more}, page errors ${JSON.stringify(errors)}\n${traffic.join('\n')}`,
        );
      });
    expect(await page.locator('.error-text').allTextContents()).toEqual([]);
    expect(await entries.count()).toBe(41);
    expect(await page.getByTestId('more-chats').count()).toBe(0);
    const titles = await entries.evaluateAll((all) =>
      all.map((entry) => /Question (\d+) /.exec(entry.textContent ?? '')?.[1]),
    );
    expect(
      titles
        .filter((n) => n !== undefined)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...Array(40).keys()]);
    await screenshot(page, 'chat-list-40');
    expect(errors).toEqual([]);
  });

  it('searches chats by title and deletes one after a confirmation', async () => {
    await open('#/agencies?agency=demo');
    await page.getByRole('searchbox', { name: 'Search chats' }).fill('question 7 ');
    await page.waitForFunction(
      "document.querySelectorAll('[data-testid=chat-entry]').length === 1",
    );
    await page.getByRole('button', { name: /Delete chat Question 7 / }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No chat matches.').waitFor();
    const res = await fetch(`${studio.server.url}/chats?agency=demo&q=question%207%20`);
    expect(((await res.json()) as { chats: unknown[] }).chats).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('renders stored answers as markdown without injecting their HTML', async () => {
    await open('#/chat?agency=demo&chat=md');
    const transcript = page.getByTestId('transcript');
    await transcript.locator('strong', { hasText: 'bold' }).waitFor();
    expect(await transcript.locator('li').allTextContents()).toEqual(['one', 'two']);
    expect(await transcript.locator('pre code').textContent()).toBe('const x = 1;');
    expect(await transcript.locator('img').count()).toBe(0);
    expect(await transcript.textContent()).toContain('<img src=x');
    expect(
      await transcript.locator('a').evaluateAll((a) => a.map((l) => l.getAttribute('href'))),
    ).toEqual(['https://example.com']);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
  });

  it("labels a pair thread's caller by its agent name, not USER", async () => {
    await open('#/threads?agency=demo&chat=md');
    const pair = page.locator('[data-thread="md__Coordinator__Researcher"]');
    await pair.waitFor();
    expect(await pair.getByTestId('item-label').allTextContents()).toEqual([
      'Coordinator (caller)',
    ]);
    const user = page.locator('[data-thread="md__Coordinator__USER"]');
    expect(await user.getByTestId('item-label').first().textContent()).toBe('user');
  });

  it('shows the whole Ensembles view and every tab at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open('#/ensembles?agency=demo&ensemble=parallel-dag');
    await page.getByRole('button', { name: 'Run' }).waitFor();
    const widest = (await page.evaluate(
      "Math.max(...[...document.querySelectorAll('body *')].map((el) => el.getBoundingClientRect().right))",
    )) as number;
    expect(widest).toBeLessThanOrEqual(390);
    const tab = await page.getByRole('link', { name: 'Ensembles' }).boundingBox();
    expect(tab!.x + tab!.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'phone-ensembles');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('opens a span: a model call shows its input, instructions, settings and output; a tool its arguments', async () => {
    await open('#/chat?agency=demo');
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('Write a short brief about wave power.');
    await page.keyboard.press('Enter');
    await page.getByTestId('final-answer').waitFor({ timeout: 20_000 });
    await page.waitForFunction("location.hash.includes('chat=chat_')");
    await page.getByRole('link', { name: 'Traces' }).click();
    await page.getByTestId('waterfall').waitFor({ timeout: 20_000 });
    await page.locator('[data-kind="generation"] [data-testid="span-open"]').first().click();
    const detail = page.getByTestId('span-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('span-input').textContent()).toContain('wave power');
    expect(await detail.getByTestId('span-instructions').textContent()).toContain('You coordinate');
    expect(await detail.getByTestId('span-output').count()).toBe(1);
    await page.screenshot({ path: '/work/wt/screens/opened-span.png', fullPage: true });
    await page.locator('[data-kind="send_message"] [data-testid="span-open"]').first().click();
    expect(await detail.getByTestId('span-arguments').textContent()).toContain('recipient');
    expect(errors).toEqual([]);
  });

  it('shows the agency as a network from its traces', async () => {
    await open('#/network?agency=demo');
    await page.getByTestId('network-edges').waitFor({ timeout: 20_000 });
    const rows = await page.getByTestId('network-edge').allTextContents();
    expect(rows.some((row) => row.startsWith('Coordinator → Researcher'))).toBe(true);
    await page.screenshot({ path: '/work/wt/screens/network-view.png', fullPage: true });
    expect(errors).toEqual([]);
  });

  it('starts each view at its top', async () => {
    await open('#/agencies?agency=demo');
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.locator('main').evaluate((main) => main.scrollTo({ top: 300 }));
    expect(await page.locator('main').evaluate((main) => main.scrollTop)).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Traces' }).click();
    await page.waitForFunction("location.hash.startsWith('#/traces')");
    expect(await page.locator('main').evaluate((main) => main.scrollTop)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('sends on Enter, adds a line on Shift+Enter, renders the answer as safe markdown', async () => {
    await open('#/chat?agency=demo');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    await page.keyboard.type('Write a short brief');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('about tidal energy.');
    expect(await box.inputValue()).toBe('Write a short brief\nabout tidal energy.');
    await page.keyboard.press('Enter');
    const final = page.getByTestId('final-answer');
    await final.waitFor({ timeout: 20_000 });
    expect(await box.inputValue()).toBe('');
    expect(await final.textContent()).toContain('Here is your brief on tidal energy');
    // The answer sits in view at the bottom of the transcript.
    const inView = (await final.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.top < el.ownerDocument.documentElement.clientHeight;
    })) as boolean;
    expect(inView).toBe(true);
    // After a reload, the past turn still shows its delegation tree, read from the stored threads.
    await page.waitForFunction("location.hash.includes('chat=chat_')");
    await page.reload();
    await page.waitForLoadState('networkidle');
    const past = page.getByTestId('past-tree');
    await past.first().waitFor();
    const researcher = past.locator(
      '[data-testid="tool-call"][data-tool="send_message"] [data-testid="run"][data-agent="Researcher"]',
    );
    expect(await researcher.count()).toBe(1);
    const editor = past.locator('[data-testid="run"][data-agent="Editor"]');
    expect(await editor.getAttribute('data-depth')).toBe('2');
    await past.first().screenshot({ path: '/work/wt/screens/past-turn-tree-after-reload.png' });
    expect(errors).toEqual([]);
  });
});
