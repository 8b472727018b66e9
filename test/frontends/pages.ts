/**
 * Helpers of the frontend page tests: the example pages of `examples/frontends/` bundled for the
 * browser with esbuild (in memory), served by Playwright at the agency server's own origin (so the
 * page calls the API same-origin, as it would behind one host), and the frontdesk agency on a
 * loopback server with its threads in a temp SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { createFrontdesk } from '../../examples/frontends/agency.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { listen } from '../server/helpers.js';

const examples = fileURLToPath(new URL('../../examples/frontends', import.meta.url));

/** Bundles `source` (an entry module that imports the examples) into one browser script. */
export async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: examples, sourcefile: 'page.jsx', loader: 'jsx' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const STYLE = `
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2330; }
  body[data-theme=dark] { background: #171a21; color: #e8eaf0; }
  main { max-width: 760px; margin: 0 auto; padding: 24px; }
  h1 { font-size: 18px; margin: 0 0 16px; }
  .message { background: #fff; border-radius: 10px; padding: 10px 14px; margin: 0 0 10px;
    box-shadow: 0 1px 2px #0002; }
  body[data-theme=dark] .message { background: #232733; }
  .message.user { background: #dbe8ff; }
  body[data-theme=dark] .message.user { background: #2c3d5e; }
  .message b { display: block; font-size: 12px; text-transform: uppercase; opacity: .6; }
  .message p { margin: 4px 0; }
  .step { display: inline-block; font-size: 12px; background: #ece4ff; color: #4a2f99;
    border-radius: 999px; padding: 1px 9px; margin: 4px 6px 0 0; }
  .tool { font: 12px ui-monospace, monospace; opacity: .7; margin-top: 4px; }
  .approval { margin-top: 6px; padding: 6px 8px; background: #fff5d6; border-radius: 6px; color: #1d2330; }
  .approval button { margin-left: 6px; }
  form { display: flex; gap: 8px; margin-top: 12px; }
  input { flex: 1; padding: 8px 10px; border-radius: 8px; border: 1px solid #bbc; font: inherit; }
  button { padding: 6px 12px; border-radius: 8px; border: 1px solid #889; background: #fff; font: inherit; }
`;

/**
 * Serves a page (`script` as its module) at `<origin>/pages/<name>.html` through Playwright's
 * request interception, so the page shares the API's origin; returns the page's address.
 */
export async function servePage(
  page: Page,
  origin: string,
  name: string,
  script: string,
): Promise<string> {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${name}</title>
<style>${STYLE}</style></head><body><div id="root"></div>
<script type="module" src="/pages/${name}.js"></script></body></html>`;
  await page.route(`${origin}/pages/${name}.html`, (route) =>
    route.fulfill({ contentType: 'text/html', body: html }),
  );
  await page.route(`${origin}/pages/${name}.js`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: script }),
  );
  return `${origin}/pages/${name}.html`;
}

/** The frontdesk agency on a loopback server, its threads in a temp SQLite file. */
export async function startFrontdesk() {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-pages-'));
  const store = new SqliteStore({ path: path.join(dir, 'threads.db') });
  const { agency, deletedYears } = createFrontdesk({ threads: new ThreadManager({ store }) });
  const server = await listen({ agencies: [agency], demo: false, store, ownsStore: true });
  return {
    url: server.url,
    store,
    deletedYears,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The user messages of every chat in `store`, by chat id. */
export async function userMessagesByChat(store: SqliteStore): Promise<Map<string, string[]>> {
  const byChat = new Map<string, string[]>();
  for (const thread of await store.listThreads({})) {
    if (!thread.threadId.endsWith('USER') || !thread.chatId) continue;
    const items = await store.readItems(thread.threadId);
    const texts = items
      .map((entry) => entry.item as { role?: string; content?: unknown })
      .filter((item) => item.role === 'user')
      .map((item) =>
        typeof item.content === 'string' ? item.content : JSON.stringify(item.content),
      );
    byChat.set(thread.chatId, [...(byChat.get(thread.chatId) ?? []), ...texts]);
  }
  return byChat;
}
