/**
 * What if?, in Chromium: from a user's message in Time travel, the "What if…" action opens the
 * comparison view; changing Writer's instructions and running the replay shows the fork, the
 * model calls replayed and made live, and both branches side by side with the differences marked.
 * Saves `studio-whatif.png` (to docs/screenshots/ with `UPDATE_SCREENSHOTS=1`).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, type ServerRegistry } from '../../src/server/registry.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { poemsAgency } from '../agency/replay/poemsAgency.js';
import {
  browserSkipReason,
  closeBrowser,
  collectErrors,
  docScreenshot,
  openBrowser,
} from './browser.js';

const skip = browserSkipReason();

describe.skipIf(skip !== null)('studio what if?', { timeout: 90_000 }, () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let registry: ServerRegistry;
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let models: ReturnType<typeof poemsAgency>;

  beforeAll(async () => {
    const store = new MemoryStore();
    models = poemsAgency(store);
    registry = createRegistry({ agencies: { poems: models.agency }, store, ownsStore: true });
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      registry,
      handleSignals: false,
      gracePeriodMs: 500,
      env: {},
    });
    for (const message of ['tides', 'rivers']) {
      const res = await fetch(`${server.url}/agencies/poems/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message, chatId: 'poems-1' }),
      });
      expect(res.status).toBe(200);
    }
    browser = await openBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    errors = collectErrors(page);
  }, 60_000);

  afterAll(async () => {
    if (browser) await closeBrowser(browser);
    await server?.close();
    await registry?.close();
  });

  it('runs a what-if from a message in Time travel and shows both branches side by side', async () => {
    await page.goto(`${server.url}/#/time?agency=poems&chat=poems-1`);
    const actions = page.getByRole('link', { name: 'What if…' });
    await actions.nth(1).waitFor();
    expect(await actions.count()).toBe(2);
    await actions.nth(1).click();

    await page.getByRole('heading', { name: 'What if?' }).waitFor();
    expect(page.url()).toContain('#/compare?');
    const turn = page.locator('select[name="turn"]');
    expect(await turn.locator('option:checked').textContent()).toBe('#2 rivers');
    await page.locator('select[name="change-agent"]').selectOption('Writer');
    const value = page.locator('textarea[name="value"]');
    // The current instructions are there to edit.
    await expect.poll(() => value.inputValue()).toBe('Write poems.');
    await value.fill('Write poems. Be brief.');
    const calls = models.coordinatorModel.calls.length + models.writerModel.calls.length;
    await page.getByRole('button', { name: 'Run what-if' }).click();

    const result = page.getByTestId('compare-result');
    await result.waitFor();
    expect(await page.getByTestId('replayed').textContent()).toBe('1 model call replayed');
    expect(await page.getByTestId('live').textContent()).toBe('2 live');
    expect(await page.getByTestId('differences').textContent()).toBe('6 differences');
    // Only Writer's call and Coordinator's last call reached the models.
    expect(models.coordinatorModel.calls.length + models.writerModel.calls.length).toBe(calls + 2);

    const writer = page.locator('section[data-agent="Writer"]');
    expect(await writer.locator('.badge').textContent()).toBe('1 changed');
    const changed = writer.locator('.compare-row[data-diff="true"]');
    // The changed answer, the final answer and the usage are marked; Writer's input is not.
    expect(await changed.count()).toBe(3);
    expect(
      await changed.first().locator('[data-side="original"] .compare-text').textContent(),
    ).toBe('A long poem about rivers, verse after verse.');
    expect(await changed.first().locator('[data-side="replay"] .compare-text').textContent()).toBe(
      'rivers.',
    );
    const coordinator = page.locator('section[data-agent="Coordinator"]');
    expect(await coordinator.locator('.compare-row[data-diff="false"]').count()).toBe(3);
    expect(await coordinator.locator('.compare-row[data-diff="true"]').count()).toBe(3);

    await docScreenshot(page, 'studio-whatif');

    await page.getByRole('button', { name: 'Open the fork' }).click();
    await page.waitForURL(/#\/chat\?.*chat=chat_/);
    expect(errors).toEqual([]);
  });
});
