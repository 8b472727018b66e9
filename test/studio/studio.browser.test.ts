/**
 * Colloquy Studio in a real browser (Chromium through playwright-core) against a loopback server
 * with the demo agency: the graph, a streamed chat with nested delegation, threads, checkpoint →
 * fork, rollback, an ensemble run, traces, phone width. Saves a screenshot of each page under
 * test-output/studio/.
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
import { agencySpans } from './fixtures/spans.js';

const skip = browserSkipReason();

describe.skipIf(skip !== null)('Colloquy Studio in Chromium', { timeout: 90_000 }, () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let studio: Awaited<ReturnType<typeof startStudioServer>>;
  let page: Page;
  let errors: string[];
  let chatId = '';

  beforeAll(async () => {
    studio = await startStudioServer();
    browser = await openBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    errors = collectErrors(page);
    // Records when each element of interest first appears, to check what streamed before what.
    // (Page scripts are strings: this file is typechecked without the DOM library.)
    await page.addInitScript({
      content: `
        window.__seen = {};
        const marks = {
          nested: '[data-testid="run"][data-depth="1"]',
          editor: '[data-testid="run"][data-agent="Editor"]',
          final: '[data-testid="final-answer"]',
        };
        new MutationObserver(() => {
          for (const [key, selector] of Object.entries(marks))
            if (window.__seen[key] === undefined && document.querySelector(selector))
              window.__seen[key] = performance.now();
        }).observe(document, { childList: true, subtree: true });`,
    });
  }, 60_000);

  afterAll(async () => {
    if (browser) await closeBrowser(browser);
    if (studio) await studio.close();
  });

  const open = async (hash: string) => {
    await page.goto(`${studio.server.url}/${hash}`);
    await page.waitForLoadState('networkidle');
  };

  it('loads with no console errors and draws the demo graph: 4 agents, 3 flows', async () => {
    await open('');
    await page.getByTestId('graph-summary').waitFor();
    expect(await page.getByTestId('graph-summary').textContent()).toContain('4 agents · 3 flows');
    const agents = await page
      .locator('[data-testid="graph-node"]:not([data-node="__user"])')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node')));
    expect(agents.sort()).toEqual(['Coordinator', 'Editor', 'Researcher', 'Writer']);
    const flows = await page.locator('.react-flow__edge-text').allTextContents();
    expect(flows.filter((text) => text === 'send_message')).toHaveLength(3);
    await page.locator('.react-flow__node', { hasText: 'Researcher' }).click();
    const panel = page.getByTestId('agent-panel');
    await panel.waitFor();
    expect(await panel.textContent()).toContain('Finds key facts about a topic.');
    expect(await panel.textContent()).toContain('Answer with three short, numbered facts.');
    await screenshot(page, 'agencies');
    expect(errors).toEqual([]);
  });

  it('streams a message: nested delegation appears before the final answer', async () => {
    await open('#/chat?agency=demo');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    await page.keyboard.type('Write a short brief about tidal energy.');
    await page.keyboard.press('Control+Enter'); // keyboard-only send
    const final = page.getByTestId('final-answer');
    await final.waitFor({ timeout: 20_000 });
    expect(await final.textContent()).toContain('Here is your brief on tidal energy');
    // Nested under the send_message call that caused it, two levels deep for the Editor.
    const researcher = page.locator(
      '[data-testid="tool-call"][data-tool="send_message"] [data-testid="run"][data-agent="Researcher"]',
    );
    expect(await researcher.count()).toBe(1);
    expect(await researcher.textContent()).toContain('predictable years ahead');
    const editor = page.locator(
      '[data-testid="run"][data-agent="Writer"] [data-testid="tool-call"] [data-testid="run"][data-agent="Editor"]',
    );
    expect(await editor.getAttribute('data-depth')).toBe('2');
    const seen = (await page.evaluate('window.__seen')) as Record<string, number>;
    expect(seen.nested).toBeLessThan(seen.final!);
    expect(seen.editor).toBeLessThan(seen.final!);
    await page.waitForFunction("location.hash.includes('chat=chat_')");
    chatId = new URLSearchParams(page.url().split('?')[1]).get('chat')!;
    expect(chatId).toMatch(/^chat_/);
    await screenshot(page, 'chat');
    expect(errors).toEqual([]);
  });

  it('asks to approve a tool call, then resumes the call', async () => {
    await open('#/chat?agency=office');
    await page.getByRole('textbox', { name: 'Message' }).fill('Tidy up the reports.');
    await page.getByRole('button', { name: 'Send' }).click();
    const approvals = page.getByTestId('approvals');
    await approvals.waitFor({ timeout: 20_000 });
    expect(await approvals.textContent()).toContain('delete_reports by Clerk');
    expect(await approvals.textContent()).toContain('{"year":2020}');
    await screenshot(page, 'approvals');
    const resume = approvals.getByRole('button', { name: 'Resume' });
    expect(await resume.isDisabled()).toBe(true); // every call needs a decision first
    await approvals.getByLabel('Approve').check();
    await resume.click();
    const final = page.getByTestId('final-answer');
    await final.waitFor({ timeout: 20_000 });
    expect(await final.textContent()).toContain('Front: Clerk: deleted 2020');
    expect(errors).toEqual([]);
  });

  it('aborts a running call', async () => {
    await open('#/chat?agency=slow');
    await page.getByRole('textbox', { name: 'Message' }).fill('Take your time.');
    await page.getByRole('button', { name: 'Send' }).click();
    // The helper's run has started (it takes 10 s): abort the call.
    await page.locator('[data-testid="run"][data-agent="Helper"]').waitFor();
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.getByText('Aborted: the agency stopped this call.').waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('final-answer').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it("shows the chat's threads side by side with their ids", async () => {
    await open(`#/threads?agency=demo&chat=${chatId}`);
    await page.getByTestId('threads').waitFor();
    const ids = await page
      .locator('[data-thread]')
      .evaluateAll((cols) => cols.map((col) => col.getAttribute('data-thread')));
    expect(ids).toHaveLength(4);
    expect(ids[0]).toBe(`${chatId}__Coordinator__USER`);
    expect(await page.locator('[data-kind="tool_call"]').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('[data-kind="tool_result"]').count()).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'threads');
  });

  it('checkpoint, then fork, opens a new chat with the earlier items', async () => {
    await open(`#/time?agency=demo&chat=${chatId}`);
    await page.getByPlaceholder('label (optional)').fill('after tides');
    await page.getByRole('button', { name: 'Checkpoint now' }).click();
    await page.getByTestId('checkpoint').first().waitFor();
    // A second message after the checkpoint.
    await open(`#/chat?agency=demo&chat=${chatId}`);
    await page.getByTestId('history-message').first().waitFor();
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('Write a short brief about wind power.');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('final-answer').waitFor({ timeout: 20_000 });

    await open(`#/time?agency=demo&chat=${chatId}`);
    await page.getByTestId('checkpoint').first().click();
    await page.getByText('Viewing the chat as it was').waitFor();
    await page.getByTestId('threads').waitFor();
    const asWas = await page.locator(`[data-thread="${chatId}__Coordinator__USER"]`).textContent();
    expect(asWas).toContain('tidal energy');
    expect(asWas).not.toContain('wind power');
    await screenshot(page, 'time-travel');

    await page.getByRole('button', { name: 'Fork from here' }).click();
    await page.waitForFunction(
      `location.hash.startsWith('#/chat') && !location.hash.includes(${JSON.stringify(chatId)})`,
    );
    await page.getByTestId('history-message').first().waitFor();
    const history = await page.getByTestId('transcript').textContent();
    expect(history).toContain('tidal energy');
    expect(history).not.toContain('wind power');
    await screenshot(page, 'fork');
  });

  it('rollback, after a confirmation, removes later items', async () => {
    await open(`#/time?agency=demo&chat=${chatId}`);
    await page.getByTestId('checkpoint').first().click();
    await page.getByRole('button', { name: 'Roll back to here…' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await screenshot(page, 'rollback-confirm');
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await page.getByText('Rolled back to after tides').waitFor();
    await page.getByTestId('threads').waitFor();
    const userThread = await page
      .locator(`[data-thread="${chatId}__Coordinator__USER"]`)
      .textContent();
    expect(userThread).toContain('tidal energy');
    expect(userThread).not.toContain('wind power');
    const res = await fetch(`${studio.server.url}/threads/${chatId}__Coordinator__USER`);
    const { items } = (await res.json()) as { items: Array<{ item: { content?: unknown } }> };
    expect(JSON.stringify(items)).not.toContain('wind power');
  });

  it('runs an ensemble and shows its completion reason, turn count and history', async () => {
    await open('#/ensembles?agency=demo&ensemble=parallel-dag');
    await page.getByRole('button', { name: 'Run' }).click();
    // While it runs, the agent running now is highlighted in the DAG.
    await page.locator('[data-testid="graph-node"][data-active="true"]').first().waitFor();
    const reason = page.getByTestId('completion-reason');
    await reason.waitFor({ timeout: 30_000 });
    expect(await reason.textContent()).toBe('completed');
    expect(await page.getByTestId('turn-count').textContent()).toBe('5');
    expect(await page.locator('.node-badge').count()).toBe(5);
    await page.getByTestId('saved-runs').waitFor();
    await screenshot(page, 'ensembles');
  });

  it('shows traces or says how to get them', async () => {
    await open(`#/traces?agency=demo&chat=${chatId}`);
    await page.locator('.empty, [data-testid="waterfall"]').first().waitFor();
    await screenshot(page, 'traces-live');
    // A server without a trace store answers /traces with 404: the view says so, no other error.
    const traces404 = errors.filter((e) => /status of 404/.test(e) && /\/traces\?/.test(e));
    if (traces404.length > 0)
      expect(await page.locator('.empty').textContent()).toContain('keeps no traces');
    errors.splice(0, errors.length, ...errors.filter((e) => !traces404.includes(e)));
    expect(errors).toEqual([]);
  });

  it('draws a trace as a waterfall (fixture spans through the /traces contract)', async () => {
    const summary = {
      traceId: 't1',
      name: 'demo: Coordinator',
      chatId,
      startedAt: agencySpans[1]!.startedAt,
      durationMs: 1000,
      spanCount: agencySpans.length,
      usage: { inputTokens: 48, outputTokens: 10, totalTokens: 58 },
    };
    await page.route(/\/traces(\?|$)/, (route) => route.fulfill({ json: { traces: [summary] } }));
    await page.route(/\/traces\/t1$/, (route) =>
      route.fulfill({ json: { trace: summary, spans: agencySpans } }),
    );
    await open(`#/traces?agency=demo&chat=${chatId}`);
    await page.reload(); // the same hash again: load the page anew so it asks for /traces again
    const waterfall = page.getByTestId('waterfall');
    await waterfall.waitFor();
    const rows = await waterfall
      .locator('[role="row"][data-kind]')
      .evaluateAll((all) => all.map((row) => row.getAttribute('data-kind')));
    expect(rows).toEqual([
      'agent',
      'generation',
      'send_message',
      'agent',
      'generation',
      'generation',
    ]);
    expect(await waterfall.textContent()).toContain('30 / 5');
    await screenshot(page, 'traces');
    await page.unroute(/\/traces(\?|$)/);
    await page.unroute(/\/traces\/t1$/);
  });

  it('works at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(`#/chat?agency=demo&chat=${chatId}`);
    await page.getByTestId('history-message').first().waitFor();
    await screenshot(page, 'phone-chat');
    // Nothing wider than the screen: the page never scrolls sideways (the tabs scroll on their own).
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBe(0);
    await open('#/agencies?agency=demo');
    await page.getByTestId('graph-summary').waitFor();
    await screenshot(page, 'phone-agencies');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(errors).toEqual([]);
  });
});
