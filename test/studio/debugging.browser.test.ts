/**
 * The studio as a debugger, in Chromium: traces titled by their chat's first message, an opened
 * span, a past turn's tree after a reload, the network view, search across chats by text, agent
 * and date, every request to the page's own server (offline, through the typed client), and a
 * page whose script was lost to a server restart that loads itself again. Saves the screenshots
 * of docs/studio.md under docs/screenshots/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserSkipReason,
  closeBrowser,
  collectErrors,
  docScreenshot,
  openBrowser,
  startStudioServer,
} from './browser.js';

const skip = browserSkipReason();
const WAVE = 'Write a short brief about wave power.';

describe.skipIf(skip !== null)('studio as a debugger', { timeout: 90_000 }, () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let studio: Awaited<ReturnType<typeof startStudioServer>>;
  let page: Page;
  let errors: string[];
  const requested: string[] = [];

  beforeAll(async () => {
    studio = await startStudioServer();
    const ask = async (message: string, chatId: string) => {
      const res = await fetch(`${studio.server.url}/agencies/demo/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message, chatId }),
      });
      expect(res.status).toBe(200);
    };
    await ask(WAVE, 'wave');
    await ask('Write a short brief about tidal energy.', 'tide');
    // A chat whose only mention of a lighthouse is in an answer, with no sub-agent thread.
    await studio.store.append(
      'harbour__Coordinator__USER',
      [
        { id: 'u', item: { role: 'user', content: 'Plan the harbour festival' } },
        {
          id: 'a',
          item: {
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'The lighthouse tour opens at dusk.' }],
          } as never,
        },
      ],
      { expectedVersion: 0, chatId: 'harbour' },
    );
    browser = await openBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.on('request', (request) => requested.push(request.url()));
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

  it("titles every trace by its chat's first message, not by its agency", async () => {
    await open('#/traces?agency=demo');
    const items = page.getByTestId('trace-item');
    await items.first().waitFor();
    const titles = await items.locator('.trace-title').allTextContents();
    expect(titles).toContain(WAVE);
    expect(titles).toContain('Write a short brief about tidal energy.');
    expect(titles.some((title) => title.startsWith('agency '))).toBe(false);
    expect(errors).toEqual([]);
  });

  it('opens a span with its input and output', async () => {
    await open('#/traces?agency=demo&chat=wave');
    await page.getByTestId('waterfall').waitFor({ timeout: 20_000 });
    await page.locator('[data-kind="generation"] [data-testid="span-open"]').first().click();
    const detail = page.getByTestId('span-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('span-input').textContent()).toContain('wave power');
    expect(await detail.getByTestId('span-output').count()).toBe(1);
    await detail.scrollIntoViewIfNeeded();
    await docScreenshot(page, 'studio-span');
    expect(errors).toEqual([]);
  });

  it("shows a past turn's delegation tree after a reload", async () => {
    await open('#/chat?agency=demo&chat=wave');
    await page.reload();
    await page.waitForLoadState('networkidle');
    const past = page.getByTestId('past-tree');
    await past.first().waitFor();
    expect(await past.locator('[data-testid="run"][data-agent="Researcher"]').count()).toBe(1);
    await docScreenshot(page, 'studio-past-turn');
    expect(errors).toEqual([]);
  });

  it('shows the agency as a network', async () => {
    await open('#/network?agency=demo');
    await page.getByTestId('network-edges').waitFor({ timeout: 20_000 });
    const rows = await page.getByTestId('network-edge').allTextContents();
    expect(rows.some((row) => row.startsWith('Coordinator → Researcher'))).toBe(true);
    await docScreenshot(page, 'studio-network');
    expect(errors).toEqual([]);
  });

  it('searches chats by text in any message, by agent and by date', async () => {
    await open('#/agencies?agency=demo');
    const entries = page.getByTestId('chat-entry');
    const titles = async () =>
      (await entries.allTextContents()).map((t) => t.split(/\d+ items/)[0]);
    await entries.first().waitFor();
    expect(await entries.count()).toBe(3);
    // Each entry is mostly its title; the delete button keeps a small width.
    const [titleWidth, deleteWidth] = (await page
      .locator('.chat-entry')
      .first()
      .locator('button')
      .evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().width))) as number[];
    expect(titleWidth).toBeGreaterThan(deleteWidth! * 3);
    // "lighthouse" is only in an answer, not in any title.
    await page.getByRole('searchbox', { name: 'Search chats' }).fill('lighthouse');
    await page.waitForFunction(
      "document.querySelectorAll('[data-testid=chat-entry]').length === 1",
    );
    expect(await titles()).toEqual(['Plan the harbour festival']);
    await page.getByRole('searchbox', { name: 'Search chats' }).fill('');
    // By agent: the harbour chat never reached the Researcher.
    const filters = page.getByTestId('chat-filters');
    await filters.locator('summary').click();
    await filters.getByLabel('Agent').selectOption('Researcher');
    await page.waitForFunction(
      "document.querySelectorAll('[data-testid=chat-entry]').length === 2",
    );
    expect((await titles()).sort()).toEqual([
      'Write a short brief about tidal energy.',
      'Write a short brief about wave power.',
    ]);
    expect(await filters.locator('summary').textContent()).toBe('Filters (1)');
    await docScreenshot(page, 'studio-search');
    // By date: nothing was active before 2001.
    await filters.getByLabel('To', { exact: true }).fill('2000-12-31');
    await page.getByText('No chat matches.').waitFor();
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForFunction(
      "document.querySelectorAll('[data-testid=chat-entry]').length === 3",
    );
    expect(errors).toEqual([]);
  });

  it('asks only its own server (offline), through the public API', () => {
    const origin = new URL(studio.server.url).origin;
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual(
      [],
    );
    const api = requested.filter((url) => /\/(agencies|chats|traces|threads)\b/.test(url));
    expect(api.length).toBeGreaterThan(0);
  });

  it('loads itself again when its script was lost to a server restart during page load', async () => {
    const restarted = await browser.context.newPage();
    const pageErrors = collectErrors(restarted, [/ERR_CONNECTION_REFUSED/]);
    let refused = 0;
    // The server is down for the page's first script request (as during `colloquy dev` reloads).
    await restarted.route('**/studio/assets/*.js', async (route) => {
      if (refused === 0) {
        refused += 1;
        await route.abort('connectionrefused');
      } else await route.continue();
    });
    await restarted.goto(`${studio.server.url}/#/agencies?agency=demo`);
    await restarted.getByTestId('graph-summary').waitFor({ timeout: 20_000 });
    expect(refused).toBe(1);
    expect(await restarted.getByTestId('graph-summary').textContent()).toContain('4 agents');
    expect(await restarted.evaluate("sessionStorage.getItem('colloquy.bootTries')")).toBeNull();
    expect(pageErrors).toEqual([]);
    await restarted.close();
  });
});
