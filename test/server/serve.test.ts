import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { createRegistry } from '../../src/server/registry.js';
import { startServer } from '../../src/server/serve.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { GatedModel, json, post, sseEvents } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function gatedAgency() {
  const model = new GatedModel(new ScriptedModel(['done', 'done again'], { name: 'slow' }));
  const agent = new Agent({ name: 'Slow', instructions: 'wait', model });
  return {
    agency: new Agency({
      name: 'slow',
      entryPoints: [agent],
      threads: new ThreadManager({ store: new MemoryStore() }),
    }),
    model,
  };
}

describe('startServer', () => {
  it('lets a running request finish on shutdown, then closes the agencies and stores it opened', async () => {
    const { agency, model } = gatedAgency();
    const store = new MemoryStore();
    let storeClosed = false;
    store.close = async () => void (storeClosed = true);
    const server = await startServer({
      port: 0,
      registry: createRegistry({ agencies: [agency], store, ownsStore: true }),
      handleSignals: false,
      gracePeriodMs: 5000,
      env: {},
    });
    const pending = post(`${server.url}/agencies/slow/responses`, { message: 'go' });
    await model.called.promise;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await expect(fetch(`${server.url}/health`)).rejects.toThrow(); // no longer accepting
    expect(closed).toBe(false); // but the call in flight holds the close
    model.release.resolve();
    const res = await pending;
    expect(res.status).toBe(200);
    expect((await json(res)).finalOutput).toBe('done');
    await closing;
    expect(storeClosed).toBe(false); // a registry given to startServer is the caller's to close
    await server.registry.close();
    expect(storeClosed).toBe(true);
  });

  it('cuts streams still running after the grace period and aborts their runs', async () => {
    const { agency, model } = gatedAgency();
    const server = await startServer({
      port: 0,
      registry: createRegistry({ agencies: [agency] }),
      handleSignals: false,
      gracePeriodMs: 150,
      env: {},
    });
    const res = await post(`${server.url}/agencies/slow/responses/stream`, { message: 'go' });
    await model.called.promise;
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(3000);
    await model.sawAbort.promise;
    model.release.resolve();
    const events: string[] = [];
    await (async () => {
      for await (const event of sseEvents(res)) events.push(event.event);
    })().catch(() => undefined);
    expect(events).not.toContain('run_completed');
    await server.registry.close();
  });

  it('runs as `colloquy serve`: prints the URL and agencies, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(here, 'fixtures', 'serveCli.ts'),
        'serve',
        '--port',
        '0',
        '--config',
        path.join(here, 'fixtures', 'project', 'colloquy.yaml'),
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, COLLOQUY_API_KEY: '' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(stdout);
        if (match && stdout.includes('try:')) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    expect(stdout).toContain('agencies:  support, helpdesk\n');
    expect(stdout).toContain('ensembles: hello');
    const reply = await json(await post(`${url}/agencies/support/responses`, { message: 'hi' }));
    expect(reply.finalOutput).toBe('support: hi');
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('SIGTERM: finishing running requests');
    expect(stderr).toContain('server stopped');
  });

  it('refuses a port that is in use, with the fix in the message', async () => {
    const first = await startServer({
      port: 0,
      registry: createRegistry(),
      handleSignals: false,
      env: {},
    });
    const registry = createRegistry();
    await expect(
      startServer({ port: first.port, registry, handleSignals: false, env: {} }),
    ).rejects.toThrow(/in use.*--port/);
    await first.close();
    await first.registry.close();
    await registry.close();
  });
});
