/**
 * The studio's Evals tab, in Chromium: a run written by `runEval` on the demo agency (scripted
 * models) is listed, its cases show their scores, reasons and pass/fail, and a case's trace link
 * opens the Traces view on that case's chat with its waterfall.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { runEval } from '../../src/evals/run.js';
import type { EvalResults } from '../../src/evals/results.js';
import { agencyTarget } from '../../src/evals/targets.js';
import { createRegistry, type ServerRegistry } from '../../src/server/registry.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import {
  browserSkipReason,
  closeBrowser,
  collectErrors,
  openBrowser,
  screenshot,
} from './browser.js';

const skip = browserSkipReason();

describe.skipIf(skip !== null)('studio evals', { timeout: 90_000 }, () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let registry: ServerRegistry;
  let server: RunningServer;
  let dir: string;
  let results: EvalResults;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'colloquy-studio-evals-'));
    const store = new MemoryStore();
    const agency = createDemoAgency({ threads: new ThreadManager({ store }) });
    registry = createRegistry({ agencies: { demo: agency }, store, ownsStore: true });
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      registry,
      handleSignals: false,
      gracePeriodMs: 500,
      env: {},
      evalsDir: dir,
    });
    results = await runEval({
      dataset: {
        file: 'tides.jsonl',
        cases: [
          {
            id: 'brief',
            input: 'Write a short brief about tides.',
            scorers: [{ type: 'contains', value: ['tide'] }],
          },
          {
            id: 'zebra',
            input: 'Write a short brief about tides.',
            scorers: [{ type: 'contains', value: ['zebra'] }],
            thresholds: { contains: 1 },
          },
        ],
      },
      target: agencyTarget(agency, { name: 'demo' }),
      resultsDir: dir,
    });
    browser = await openBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    errors = collectErrors(page);
  }, 60_000);

  afterAll(async () => {
    if (browser) await closeBrowser(browser);
    await server?.close();
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the run, shows each case’s score and reason, and follows a case’s trace link', async () => {
    await page.goto(`${server.url}/#/evals`);
    await page.getByRole('link', { name: 'Evals' }).waitFor();
    const runs = page.getByTestId('eval-runs');
    await runs.waitFor();
    expect(await runs.innerText()).toContain('tides.jsonl');
    expect(await runs.innerText()).toContain('1/2 passed');

    const cases = page.getByTestId('eval-case');
    await cases.nth(1).waitFor();
    const brief = await cases.nth(0).innerText();
    expect(brief).toContain('brief');
    expect(brief).toMatch(/pass · 100%/);
    expect(brief).toContain('contains 100%');
    const zebra = await cases.nth(1).innerText();
    expect(zebra).toMatch(/fail · 0%/);
    expect(zebra).toContain('zebra');
    await screenshot(page, 'evals');

    const chatId = results.cases[0]!.runs[0]!.chatId!;
    expect(chatId).toMatch(/^eval_/);
    await cases.nth(0).getByTestId('eval-trace').click();
    await page.waitForFunction(
      `location.hash.startsWith('#/traces') && location.hash.includes('chat=${chatId}')`,
    );
    await page.getByText(`for chat ${chatId}`).waitFor();
    await page.getByTestId('waterfall').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('waterfall').innerText()).toContain('Coordinator');
    expect(errors).toEqual([]);
  });
});
