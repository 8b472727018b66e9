import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startDevServer, type DevReloadEvent, type DevServer } from '../../src/cli/devServer.js';

const INDEX = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const MODELS = fileURLToPath(new URL('../../src/models.ts', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A temp project with an agencies.ts serving one agency named `name`. */
function project(name: string): { dir: string; write: (name: string) => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-dev-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const write = (agencyName: string) =>
    writeFileSync(
      path.join(dir, 'agencies.ts'),
      `import { Agency, Agent, MemoryStore, ThreadManager } from ${JSON.stringify(INDEX)};\n` +
        `import { ScriptedModel } from ${JSON.stringify(MODELS)};\n` +
        `const greeter = new Agent({ name: 'Greeter', instructions: 'Greet.', model: new ScriptedModel(() => 'hello from ${agencyName}') });\n` +
        `export const agency = new Agency({ name: '${agencyName}', entryPoints: [greeter], threads: new ThreadManager({ store: new MemoryStore() }) });\n`,
    );
  write(name);
  return { dir, write };
}

async function dev(options: Parameters<typeof startDevServer>[0]): Promise<DevServer> {
  const server = await startDevServer({ port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

describe('startDevServer', () => {
  it("serves the module's agencies, the API and the studio", async () => {
    const { dir } = project('alpha');
    const server = await dev({ module: 'agencies.ts', cwd: dir, watch: false });
    expect(server.agencies).toEqual(['alpha']);
    const listed = (await (await fetch(`${server.url}/agencies`)).json()) as {
      agencies: Array<{ name: string }>;
    };
    expect(listed.agencies.map((a) => a.name)).toEqual(['alpha']);
    const reply = await fetch(`${server.url}/agencies/alpha/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(((await reply.json()) as { finalOutput: string }).finalOutput).toBe('hello from alpha');
    const page = await fetch(`${server.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('reloads the module when it changes, on the same port', async () => {
    const { dir, write } = project('alpha');
    const events: DevReloadEvent[] = [];
    const server = await dev({
      module: './agencies.ts',
      cwd: dir,
      debounceMs: 50,
      onReload: (e) => events.push(e),
    });
    expect(server.watching).toBe(dir);
    const before = server.url;
    write('beta');
    for (let i = 0; i < 100 && events.length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(events[0]).toMatchObject({
      type: 'reloaded',
      agencies: ['beta'],
      changed: 'agencies.ts',
    });
    expect(server.url).toBe(before);
    const health = (await (await fetch(`${server.url}/health`)).json()) as { agencies: string[] };
    expect(health.agencies).toEqual(['beta']);
  });

  it('keeps serving the previous version when the module breaks', async () => {
    const { dir } = project('alpha');
    const events: DevReloadEvent[] = [];
    const server = await dev({
      module: 'agencies.ts',
      cwd: dir,
      watch: false,
      onReload: (e) => events.push(e),
    });
    writeFileSync(path.join(dir, 'agencies.ts'), 'export const x = ;\n');
    await server.reload('agencies.ts');
    expect(events).toEqual([
      expect.objectContaining({ type: 'reload_failed', changed: 'agencies.ts' }),
    ]);
    expect(server.agencies).toEqual(['alpha']);
    expect((await fetch(`${server.url}/agencies/alpha/graph`)).status).toBe(200);
  });

  it('serves the demo agency without a module or configured agencies', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-dev-empty-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const server = await dev({ cwd: dir });
    expect(server.agencies).toEqual(['demo']);
    expect(server.watching).toBeUndefined();
  });
});
