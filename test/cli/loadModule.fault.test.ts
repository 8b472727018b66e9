/**
 * Fault tests of loading a user's module (issue 25): a top-level await that never settles times
 * out naming the module (in-process, under `dev` reloads, and in a real `colloquy chat`/`dev`
 * process, which used to exit 13 printing nothing), and a duck-typed fake agency export is
 * refused at load instead of breaking `GET /agencies`.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startDevServer, type DevReloadEvent } from '../../src/cli/devServer.js';
import { ImportTimeoutError } from '../../src/cli/importDeadline.js';
import { importModuleExports, loadAgencyModule } from '../../src/cli/loadModule.js';
import { importAgencies } from '../../src/server/registry.js';
import { spawnColloquy } from './spawnCli.js';

const INDEX = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const MODELS = fileURLToPath(new URL('../../src/models.ts', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-load-fault-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HANG = 'await new Promise(() => {}); // never settles\nexport const x = 1;\n';
const FAKE =
  "export const fake = { name: 'fake', agents: new Map(), getResponse() {}, getResponseStream() {} };\n";

/** A TypeScript module serving one agency named `name`. */
function agencySource(name: string): string {
  return (
    `import { Agency, Agent, MemoryStore, ThreadManager } from ${JSON.stringify(INDEX)};\n` +
    `import { ScriptedModel } from ${JSON.stringify(MODELS)};\n` +
    `const a = new Agent({ name: 'A', instructions: 'x', model: new ScriptedModel(() => 'hi from ${name}') });\n` +
    `export const agency = new Agency({ name: '${name}', entryPoints: [a], threads: new ThreadManager({ store: new MemoryStore() }) });\n`
  );
}

function write(name: string, source: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return file;
}

describe('a module whose top-level await never settles', () => {
  it('times out with an error naming the module', async () => {
    const file = write('hang.mjs', HANG);
    const started = Date.now();
    const loading = loadAgencyModule(file, { importTimeoutMs: 300 });
    await expect(loading).rejects.toBeInstanceOf(ImportTimeoutError);
    await expect(loading).rejects.toThrow(
      `Importing the module ${file} did not finish within 300 ms`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('times out under serve and worker (their importer), naming the module', async () => {
    const file = write('hang-serve.mjs', HANG);
    await expect(
      importAgencies(file, {
        importModule: (f) => importModuleExports(f, { importTimeoutMs: 300 }),
      }),
    ).rejects.toThrow(new RegExp(`^Importing the module ${file} did not finish within 300 ms`));
  });

  it('does not block a later dev reload: the fixed module is served', async () => {
    const sub = mkdtempSync(path.join(dir, 'dev-'));
    const module = path.join(sub, 'agencies.mts');
    writeFileSync(module, agencySource('alpha'));
    const events: DevReloadEvent[] = [];
    const server = await startDevServer({
      module,
      port: 0,
      watch: false,
      importTimeoutMs: 40_000,
      onReload: (event) => events.push(event),
    });
    cleanups.push(() => server.close());
    const marker = path.join(sub, 'started');
    writeFileSync(
      module,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\n${HANG}`,
    );
    let hungSettled = false;
    void server.reload('hang').finally(() => (hungSettled = true));
    for (let i = 0; i < 600 && !existsSync(marker); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(marker), 'the hung import started').toBe(true);
    writeFileSync(module, agencySource('beta'));
    await server.reload('fix');
    expect(hungSettled, 'the fix was served while the hung import still waits').toBe(false);
    expect(server.agencies).toEqual(['beta']);
    const listed = (await (await fetch(`${server.url}/agencies`)).json()) as {
      agencies: Array<{ name: string }>;
    };
    expect(listed.agencies.map((a) => a.name)).toEqual(['beta']);
    expect(events).toEqual([{ type: 'reloaded', agencies: ['beta'], changed: 'fix' }]);
  }, 90_000);

  it('makes `colloquy chat` and `colloquy dev` fail with the message, not exit 13 silently', async () => {
    const file = write('hang-cli.mjs', HANG);
    for (const args of [
      ['chat', file],
      ['dev', file, '--port', '0', '--no-watch'],
    ]) {
      const run = await spawnColloquy(args, { env: { COLLOQUY_IMPORT_TIMEOUT_MS: '500' } });
      expect(run.code, `${args[0]}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toContain(`Importing the module ${file} did not finish within 500 ms`);
    }
  }, 60_000);

  it('makes `colloquy chat` exit even when the module holds a live timer', async () => {
    // The import never settles and a timer keeps the event loop alive: before, chat printed the
    // timeout and then waited for Ctrl-C (this test timed out).
    const file = write('hang-live.mjs', `setInterval(() => {}, 60_000);\n${HANG}`);
    const run = await spawnColloquy(['chat', file], { env: { COLLOQUY_IMPORT_TIMEOUT_MS: '500' } });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`Importing the module ${file} did not finish within 500 ms`);
  }, 60_000);
});

describe('a duck-typed fake agency export', () => {
  it('is refused at load, naming the export and what it lacks', async () => {
    const file = write('fake.mjs', FAKE);
    await expect(loadAgencyModule(file)).rejects.toThrow(
      /fake\.mjs: export "fake" looks like an Agency but cannot be served: .*"entryPoints"/,
    );
    await expect(loadAgencyModule(`${file}#fake`)).rejects.toThrow(
      /"recipientsOf" is not a method/,
    );
  });
});

describe('the tsx loader', () => {
  it('is registered for a .ts module only', async () => {
    const flag = Symbol.for('colloquy.tsx.registered');
    const flags = globalThis as { [flag]?: boolean };
    if (flags[flag]) return expect.fail('tsx was registered before the test: run this file alone');
    const plain = write('plain.mjs', agencyFreeJs());
    await expect(loadAgencyModule(plain)).rejects.toThrow(/exports no Agency/);
    expect(flags[flag]).toBeUndefined();
    await loadAgencyModule(write('typed.ts', agencySource('typed')));
    expect(flags[flag]).toBe(true);
  });
});

function agencyFreeJs(): string {
  return 'export const answer = 42;\n';
}
