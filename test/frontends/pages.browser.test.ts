/**
 * The example pages of `examples/frontends/` in Chromium against a loopback server with the
 * frontdesk agency (scripted models): the `useChat` page (React 19, `@ai-sdk/react`,
 * `DefaultChatTransport`) and the AG-UI page (`@ag-ui/client`'s HttpAgent). On each: a message
 * gets the answer, the nested agent run shows as a step, a second message continues the same
 * chat, a gated tool asks for approval and runs once approved, and the page's own tool runs in
 * the browser. Screenshots are taken at the approval
 * (`UPDATE_SCREENSHOTS=1` refreshes docs/screenshots/frontends-*.png).
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, closeBrowser, collectErrors, openBrowser } from '../studio/browser.js';
import { bundle, servePage, startFrontdesk, userMessagesByChat } from './pages.js';

const skip = browserSkipReason();
// Screenshots go to test-output/ (gitignored); UPDATE_SCREENSHOTS=1 writes docs/screenshots/.
const screenshots = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS === '1'
      ? '../../docs/screenshots'
      : '../../test-output/frontends',
    import.meta.url,
  ),
);

/** Types a message into the page's form and sends it. */
async function say(page: Page, text: string) {
  await page.getByLabel('Message').fill(text);
  await page.getByLabel('Message').press('Enter');
}

/** Waits until an assistant message shows `text`. */
async function answer(page: Page, text: string) {
  await page
    .locator('[data-role=assistant] .text', { hasText: text })
    .first()
    .waitFor({ timeout: 15_000 });
}

/** Saves a full-page screenshot and checks it stays small. */
async function save(page: Page, name: string) {
  mkdirSync(screenshots, { recursive: true });
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect(statSync(file).size).toBeLessThan(200_000);
}

describe.skipIf(skip !== null)('example frontend pages in Chromium', { timeout: 90_000 }, () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    if (browser) await closeBrowser(browser);
  });

  /** Drives a page through the whole conversation (the two pages draw the same classes). */
  async function converse(
    page: Page,
    frontdesk: Awaited<ReturnType<typeof startFrontdesk>>,
    screenshot: string,
  ) {
    await say(page, 'tides');
    await answer(page, 'Desk: Writer wrote about tides.');
    await page
      .locator('.step', { hasText: /Desk → Writer/ })
      .first()
      .waitFor();

    await say(page, 'waves');
    await answer(page, 'Desk: Writer wrote about waves.');
    const chats = [...(await userMessagesByChat(frontdesk.store)).values()];
    expect(chats).toEqual([['tides', 'waves']]);

    await say(page, 'delete the 2019 reports');
    const approval = page.locator('.approval', { hasText: 'delete_reports' }).first();
    await approval.waitFor();
    expect(frontdesk.deletedYears).toEqual([]);
    await save(page, screenshot);
    await approval.getByRole('button', { name: 'Approve' }).click();
    await answer(page, 'Desk: Clerk: deleted the 2019 reports');
    expect(frontdesk.deletedYears).toEqual([2019]);

    await say(page, 'make it dark');
    await answer(page, 'Desk: theme is dark');
    expect(await page.evaluate('document.body.dataset.theme')).toBe('dark');
    const [chat] = [...(await userMessagesByChat(frontdesk.store)).values()];
    expect(chat).toEqual(['tides', 'waves', 'delete the 2019 reports', 'make it dark']);
  }

  it('useChat (React, @ai-sdk/react) talks to /ui-messages', async () => {
    const frontdesk = await startFrontdesk();
    const script = await bundle(`
      import { createRoot } from 'react-dom/client';
      import { Chat } from './useChat.jsx';
      createRoot(document.getElementById('root')).render(
        <Chat api="/agencies/frontdesk/ui-messages" />,
      );
    `);
    const page = await browser.context.newPage();
    const errors = collectErrors(page);
    try {
      await page.goto(await servePage(page, frontdesk.url, 'usechat', script));
      await converse(page, frontdesk, 'frontends-usechat');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      frontdesk.cleanup();
    }
  });

  it('an AG-UI page (@ag-ui/client HttpAgent) talks to /ag-ui', async () => {
    const frontdesk = await startFrontdesk();
    const script = await bundle(`
      import { mountAgUiChat } from './agUiChat.js';
      mountAgUiChat(document.getElementById('root'), { url: '/agencies/frontdesk/ag-ui' });
    `);
    const page = await browser.context.newPage();
    const errors = collectErrors(page);
    try {
      await page.goto(await servePage(page, frontdesk.url, 'agui', script));
      await converse(page, frontdesk, 'frontends-agui');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
      frontdesk.cleanup();
    }
  });
});
