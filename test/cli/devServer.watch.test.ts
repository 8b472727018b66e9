/** `colloquy dev` reloads on changes to the module's import graph only, not to any file near it. */
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startDevServer, type DevReloadEvent } from '../../src/cli/devServer.js';
import { importGraph } from '../../src/cli/importGraph.js';

const INDEX = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const MODELS = fileURLToPath(new URL('../../src/models.ts', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A project: agencies.ts imports ./lib/greeting.js (written as TypeScript's NodeNext imports
 * are: the source is greeting.ts) and reads ./prompt.md; script.ts and notes.md are unrelated.
 */
function project(type: 'module' | 'commonjs' = 'module'): {
  dir: string;
  write: (file: string, text: string) => void;
} {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-devgraph-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'lib'));
  const write = (file: string, text: string) => writeFileSync(path.join(dir, file), text);
  write('lib/greeting.ts', `export const greeting = 'hello v1';\n`);
  write('prompt.md', 'Greet.\n');
  write('script.ts', `console.log('unrelated');\n`);
  write('notes.md', 'notes\n');
  write('package.json', JSON.stringify({ type }));
  write(
    'agencies.ts',
    `import { readFileSync } from 'node:fs';\n` +
      `import { Agency, Agent, MemoryStore, ThreadManager } from ${JSON.stringify(INDEX)};\n` +
      `import { ScriptedModel } from ${JSON.stringify(MODELS)};\n` +
      `import { greeting } from './lib/greeting.js';\n` +
      `const instructions = readFileSync(new URL('./prompt.md', import.meta.url), 'utf8');\n` +
      `const greeter = new Agent({ name: 'Greeter', instructions, model: new ScriptedModel(() => greeting) });\n` +
      `export const agency = new Agency({ name: 'alpha', entryPoints: [greeter], threads: new ThreadManager({ store: new MemoryStore() }) });\n`,
  );
  return { dir, write };
}

/** The agency's answer, over a new connection (a pooled one may reach the replaced server). */
function answer(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/agencies/alpha/responses`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve((JSON.parse(body) as { finalOutput: string }).finalOutput));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ message: 'hi' }));
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(condition(), what).toBe(true);
}

describe('importGraph', () => {
  it('follows local imports (a .js specifier to its .ts source) and named data files, not packages', () => {
    const { dir } = project();
    const files = [...importGraph(path.join(dir, 'agencies.ts'))];
    expect(files.filter((f) => f.startsWith(dir)).sort()).toEqual(
      ['agencies.ts', 'lib/greeting.ts', 'prompt.md'].map((f) => path.join(dir, f)),
    );
    // The absolute imports of Colloquy's own source are project files too, and followed.
    expect(files).toContain(INDEX);
    expect(files.some((f) => f.includes('node_modules'))).toBe(false);
  });
});

describe.each(['module', 'commonjs'] as const)(
  'colloquy dev watching the import graph (%s)',
  (type) => {
    it('does not restart for an unrelated script, and restarts for an imported file or read prompt', async () => {
      const { dir, write } = project(type);
      const events: DevReloadEvent[] = [];
      const debounceMs = 50;
      const server = await startDevServer({
        module: 'agencies.ts',
        cwd: dir,
        port: 0,
        debounceMs,
        onReload: (e) => events.push(e),
      });
      cleanups.push(() => server.close());
      expect(server.watchedFiles.filter((f) => f.startsWith(dir))).toEqual(
        ['agencies.ts', 'lib/greeting.ts', 'prompt.md'].map((f) => path.join(dir, f)),
      );
      expect(await answer(server.url)).toBe('hello v1');

      // An unrelated script and note change: once our own watcher has seen both, and several
      // debounce periods have passed, the server has not restarted.
      const seen = new Set<string>();
      const probe = watch(dir, (_e, name) => seen.add(String(name)));
      cleanups.push(() => probe.close());
      write('script.ts', `console.log('edited');\n`);
      write('notes.md', 'more notes\n');
      await until(() => seen.has('script.ts') && seen.has('notes.md'), 'the probe saw the edits');
      const quietUntil = Date.now() + debounceMs * 6;
      await until(() => Date.now() > quietUntil, 'the quiet period passed');
      expect(events).toEqual([]);

      // A file the module imports (through a .js specifier) restarts it with the new code.
      write('lib/greeting.ts', `export const greeting = 'hello v2';\n`);
      await until(() => events.length === 1, 'a reload after the imported file changed');
      expect(events[0]).toMatchObject({
        type: 'reloaded',
        changed: path.join('lib', 'greeting.ts'),
      });
      expect(await answer(server.url)).toBe('hello v2');

      // A data file the module reads restarts it too.
      write('prompt.md', 'Greet warmly.\n');
      await until(() => events.length === 2, 'a reload after the prompt changed');
      expect(events[1]).toMatchObject({ type: 'reloaded', changed: 'prompt.md' });
    });

    it('watches a file the module starts importing after an edit', async () => {
      const { dir, write } = project(type);
      const events: DevReloadEvent[] = [];
      const server = await startDevServer({
        module: 'agencies.ts',
        cwd: dir,
        port: 0,
        debounceMs: 50,
        onReload: (e) => events.push(e),
      });
      cleanups.push(() => server.close());
      write('lib/extra.ts', `export const extra = 1;\n`);
      expect(server.watchedFiles).not.toContain(path.join(dir, 'lib', 'extra.ts'));
      write(
        'lib/greeting.ts',
        `import { extra } from './extra.js';\nexport const greeting = 'hello ' + extra;\n`,
      );
      await until(
        () => server.watchedFiles.includes(path.join(dir, 'lib', 'extra.ts')),
        'extra.ts joined the watched files',
      );
      expect(events.at(-1)).toMatchObject({ type: 'reloaded' });
      expect(await answer(server.url)).toBe('hello 1');
    });
  },
);
