/**
 * The studio against a server with users (`--auth jwt`): it asks for a sign-in token, and with
 * each of two users' tokens (HS256, made by `jose`) it shows only that user's chats and traces.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtAuthenticator } from '../../src/server/auth/jwt.js';
import { SECRET, tokenFor } from '../server/auth/users.helpers.js';
import {
  browserSkipReason,
  closeBrowser,
  collectErrors,
  openBrowser,
  screenshot,
  startStudioServer,
} from './browser.js';

const skip = browserSkipReason();
const QUESTIONS = {
  alice: 'Write a short brief about wind farms.',
  bob: 'Write a short brief about solar roofs.',
};

describe.skipIf(skip !== null)('Colloquy Studio with users (JWT)', { timeout: 90_000 }, () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let studio: Awaited<ReturnType<typeof startStudioServer>>;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    studio = await startStudioServer({ authenticate: jwtAuthenticator({ secret: SECRET }) });
    for (const user of ['alice', 'bob'] as const) {
      tokens[user] = await tokenFor(user);
      const res = await fetch(`${studio.server.url}/agencies/demo/responses`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${tokens[user]}`,
        },
        body: JSON.stringify({ message: QUESTIONS[user], chatId: `${user}-chat` }),
      });
      expect(res.status).toBe(200);
    }
    browser = await openBrowser();
  }, 60_000);

  afterAll(async () => {
    if (browser) await closeBrowser(browser);
    if (studio) await studio.close();
  });

  /** Opens the studio in a new tab and signs in with `token`. */
  async function signIn(token: string): Promise<Page> {
    const page = await browser.context.newPage();
    await page.goto(`${studio.server.url}/#/agencies?agency=demo`);
    const dialog = page.getByRole('dialog', { name: 'Sign-in token needed' });
    await dialog.waitFor();
    await dialog.getByLabel('Token').fill(token);
    await dialog.getByRole('button', { name: 'Use this token' }).click();
    await page.getByTestId('graph-summary').waitFor();
    return page;
  }

  const chatTitles = async (page: Page) => {
    await page.getByTestId('chat-entry').first().waitFor();
    return page.locator('[data-testid=chat-entry] .chat-title').allTextContents();
  };

  it('asks for a token, refuses a forged one, and shows each user only their own chats and traces', async () => {
    const forged = await browser.context.newPage();
    const errors = collectErrors(forged, [/status of 401/]);
    await forged.goto(`${studio.server.url}/`);
    const dialog = forged.getByRole('dialog', { name: 'Sign-in token needed' });
    await dialog.waitFor();
    await screenshot(forged, 'auth-token-prompt');
    await dialog
      .getByLabel('Token')
      .fill(await tokenFor('mallory', {}, 'another-secret-of-at-least-32-characters'));
    await dialog.getByRole('button', { name: 'Use this token' }).click();
    await forged.getByText('The token you entered was refused').waitFor();
    expect(errors).toEqual([]);
    await forged.close();

    for (const [user, other] of [
      ['alice', 'bob'],
      ['bob', 'alice'],
    ] as const) {
      const page = await signIn(tokens[user]!);
      expect(await chatTitles(page)).toEqual([QUESTIONS[user]]);
      await page.goto(`${studio.server.url}/#/traces?agency=demo`);
      await page.getByTestId('trace-item').first().waitFor();
      const traces = await page.locator('[data-testid=trace-item] .trace-title').allTextContents();
      expect(traces.length).toBeGreaterThan(0);
      expect(new Set(traces)).toEqual(new Set([QUESTIONS[user]]));
      expect(traces).not.toContain(QUESTIONS[other]);
      // Another user's chat, named in the address, is not shown.
      await page.goto(`${studio.server.url}/#/threads?agency=demo&chat=${other}-chat`);
      await page.waitForLoadState('networkidle');
      expect(await page.getByText(QUESTIONS[other]).count()).toBe(0);
      await screenshot(page, `auth-${user}`);
      await page.close();
    }
  });
});
