/**
 * Helpers of the browser tests: Debian's Chromium driven by playwright-core (headless, a fresh
 * profile, no background networking), a loopback server with the demo agency on its scripted
 * models, the example ensembles and a temp SQLite store, and screenshots under
 * `test-output/studio/`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import type { Authenticate } from '../../src/server/auth/principal.js';
import { createRegistry } from '../../src/server/registry.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { approvalAgency } from '../server/approvalAgency.js';
import { echoAgency } from '../server/helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where the browser is; `COLLOQUY_CHROMIUM` overrides. */
export const CHROMIUM = process.env.COLLOQUY_CHROMIUM ?? '/usr/bin/chromium';

/** Why browser tests skip (null when Chromium is there). Under CI=true a missing browser is a failure. */
export function browserSkipReason(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set COLLOQUY_CHROMIUM.`;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${reason}`);
  console.warn(`[studio browser tests skipped] ${reason}`);
  return reason;
}

/** The flags the browser runs with: headless, no sandbox (containers), nothing reaching the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** A browser context on a fresh profile; close it with {@link closeBrowser}. */
export async function openBrowser(): Promise<{ context: BrowserContext; profile: string }> {
  const profile = mkdtempSync(path.join(tmpdir(), 'colloquy-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  return { context, profile };
}

export async function closeBrowser(browser: { context: BrowserContext; profile: string }) {
  await browser.context.close();
  rmSync(browser.profile, { recursive: true, force: true });
}

/**
 * A server with the demo agency, `office` (a tool that needs approval), `slow` (a helper that
 * takes 10 s), the example ensembles and a temp SQLite store.
 */
export async function startStudioServer(
  options: { apiKey?: string; authenticate?: Authenticate } = {},
): Promise<{
  server: RunningServer;
  store: SqliteStore;
  close: () => Promise<void>;
}> {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-studio-'));
  const store = new SqliteStore({ path: path.join(dir, 'studio.db') });
  const registry = createRegistry({
    agencies: {
      // Each model call waits 100 ms, so that nested runs visibly stream before the final answer
      // even on a loaded machine that would otherwise render the whole run in one frame.
      demo: createDemoAgency({ threads: new ThreadManager({ store }), delayMs: 100 }),
      office: approvalAgency(store).agency,
      slow: echoAgency('slow', store, 10_000),
    },
    store,
    ownsStore: true,
    ensembles: path.join(root, 'examples', 'ensembles'),
  });
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    registry,
    handleSignals: false,
    gracePeriodMs: 500,
    env: {},
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.authenticate ? { authenticate: options.authenticate } : {}),
  });
  return {
    server,
    store,
    close: async () => {
      await server.close();
      await registry.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Errors the page logged (console errors and uncaught exceptions), collected from now on. */
export function collectErrors(page: Page, ignore: RegExp[] = []): string[] {
  const errors: string[] = [];
  const keep = (text: string) => !ignore.some((pattern) => pattern.test(text)) && errors.push(text);
  page.on(
    'console',
    (message) =>
      message.type() === 'error' && keep(`${message.text()} at ${message.location().url}`),
  );
  page.on('pageerror', (error) => keep(`uncaught: ${error.message}`));
  return errors;
}

/** Where screenshots go (gitignored). */
export const SCREENSHOTS = path.join(root, 'test-output', 'studio');

/** Saves a full-page screenshot as `test-output/studio/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Where screenshots go: `test-output/screenshots` (gitignored), or with `UPDATE_SCREENSHOTS=1` the
 * committed `docs/screenshots`, so a test run never rewrites tracked files.
 */
export const DOC_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? path.join(root, 'docs', 'screenshots')
  : path.join(root, 'test-output', 'screenshots');

/**
 * Saves the viewport (1280x800, or the phone width set) as `docs/screenshots/<name>.png` and
 * checks that it stays under 200 kB; returns its path.
 */
export async function docScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(DOC_SCREENSHOTS, { recursive: true });
  const file = path.join(DOC_SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  const bytes = statSync(file).size;
  if (bytes >= 200_000)
    throw new Error(`${file} is ${bytes} bytes: screenshots of the docs stay under 200 kB.`);
  return file;
}
