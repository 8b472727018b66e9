/**
 * Vitest global setup: builds Colloquy Studio (`studio/` → `dist/studio/`) with Vite when the
 * build is missing or older than any file of `studio/` or than `src/client.ts` (the public client
 * the page is built with), so that the server tests and the browser
 * tests serve the current page on a fresh clone.
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The newest modification time of the files under `dir` (ms). */
export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(file) : statSync(file).mtimeMs);
  }
  return newest;
}

/** Whether `dist/studio` needs a build. */
export function studioIsStale(rootDir = root): boolean {
  const index = path.join(rootDir, 'dist', 'studio', 'index.html');
  if (!existsSync(index)) return true;
  const client = path.join(rootDir, 'src', 'client.ts');
  const newest = Math.max(
    newestMtime(path.join(rootDir, 'studio')),
    existsSync(client) ? statSync(client).mtimeMs : 0,
  );
  return newest > statSync(index).mtimeMs;
}

export default async function setup(): Promise<void> {
  if (!studioIsStale()) return;
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'studio', 'vite.config.ts'), logLevel: 'warn' });
}
