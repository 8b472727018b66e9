/**
 * The studio against a server with an API key: the page itself loads, the API refuses requests
 * without the key, the page asks for it once and keeps it for the tab (sessionStorage).
 */
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
const KEY = 'studio-test-key';

describe.skipIf(skip !== null)('Colloquy Studio with an API key', () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let studio: Awaited<ReturnType<typeof startStudioServer>>;

  beforeAll(async () => {
    studio = await startStudioServer({ apiKey: KEY });
    browser = await openBrowser();
  }, 60_000);

  afterAll(async () => {
    if (browser) await closeBrowser(browser);
    if (studio) await studio.close();
  });

  it('refuses a request without the key, asks for it once, keeps it for the tab', async () => {
    const refused = await fetch(`${studio.server.url}/agencies`);
    expect(refused.status).toBe(401);
    const page = await browser.context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${studio.server.url}/`);
    const dialog = page.getByRole('dialog', { name: 'API key needed' });
    await dialog.waitFor();
    await screenshot(page, 'auth-key-prompt');
    // Only the refused API calls failed.
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /status of 401/.test(e))).toBe(true);

    await dialog.getByLabel('API key').fill('wrong-key');
    await dialog.getByRole('button', { name: 'Use this key' }).click();
    await page.getByText('The key you entered was refused').waitFor();

    await page.getByRole('dialog').getByLabel('API key').fill(KEY);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.getByTestId('graph-summary').waitFor();
    expect(await page.getByTestId('graph-summary').textContent()).toContain('4 agents');
    expect(await page.evaluate("sessionStorage.getItem('colloquy.apiKey')")).toBe(KEY);

    await page.reload();
    await page.getByTestId('graph-summary').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.close();
  });
});
