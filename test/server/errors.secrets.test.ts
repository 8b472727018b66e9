/**
 * A model provider that echoes the API key in its error body: the key must not reach any client
 * (JSON, SSE, /v1), the CLI's error line or the ensemble run's records, and the failure is a 502
 * MODEL_ERROR.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import type { ModelProfile } from '../../src/models/profile.js';
import { createProfileRegistry } from '../../src/models/profiles.js';
import { createModel, profileModelSettings } from '../../src/models/resolve.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ensembleFrom } from '../ensembles/helpers.js';
import { openaiChatProtocol } from '../models/wireServers/openaiChat.js';
import { startWireServer, type WireServer } from '../models/wireServers/wireServer.js';
import { allSseEvents, listen, post, tempDir } from './helpers.js';

const KEY = 'echoed-secret-4f9c2b7e1d';
let wire: WireServer | undefined;
afterEach(async () => {
  await wire?.close();
  wire = undefined;
  vi.unstubAllEnvs();
});

/** A provider that answers 401 and quotes the key it was sent, as some providers do. */
async function echoingProvider() {
  wire = await startWireServer(openaiChatProtocol, () => ({
    status: 401,
    body: {
      error: {
        message: `Incorrect API key provided: ${KEY}. Find your key in the dashboard.`,
        type: 'invalid_request_error',
        key: KEY,
      },
    },
  }));
  const profile: ModelProfile = {
    provider: 'openai-compatible',
    model: 'm',
    base_url: wire.baseUrl,
    api_key_env: 'ECHO_KEY',
  };
  return createProfileRegistry([
    { source: 'test', baseDir: process.cwd(), profiles: { echo: profile } },
  ]);
}

async function echoingAgency(): Promise<Agency> {
  const registry = await echoingProvider();
  const agent = new Agent({
    name: 'Desk',
    instructions: 'Answer.',
    model: createModel('echo', registry, { env: { ECHO_KEY: KEY }, record: false }),
    modelSettings: profileModelSettings('echo', registry),
  });
  return new Agency({ name: 'leaky', entryPoints: [agent] });
}

describe('a provider echoing the API key in its error', () => {
  it('JSON route: 502 MODEL_ERROR without the key', async () => {
    const server = await listen({ agencies: [await echoingAgency()] });
    const res = await post(`${server.url}/agencies/leaky/responses`, { message: 'hi' });
    const text = await res.text();
    expect(res.status).toBe(502);
    expect(JSON.parse(text).error.code).toBe('MODEL_ERROR');
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain(KEY);
  });

  it('SSE route and /v1 (plain and streamed): no key anywhere', async () => {
    const server = await listen({ agencies: [await echoingAgency()] });
    const stream = await post(`${server.url}/agencies/leaky/responses/stream`, { message: 'hi' });
    const events = await allSseEvents(stream);
    expect(events.some((e) => e.event === 'error')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(KEY);
    const v1 = await post(`${server.url}/v1/chat/completions`, {
      model: 'leaky',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const v1Text = await v1.text();
    expect(v1.status).toBe(502);
    expect(v1Text).not.toContain(KEY);
    const v1Stream = await post(`${server.url}/v1/chat/completions`, {
      model: 'leaky',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const streamed = await v1Stream.text();
    expect(streamed).toContain('error');
    expect(streamed).not.toContain(KEY);
  });

  it('the ensemble run records hold no key', async () => {
    const registry = await echoingProvider();
    vi.stubEnv('ECHO_KEY', KEY);
    const dir = tempDir();
    const ensemble = ensembleFrom(
      `name: leaky\nagents:\n  - name: writer\n    model_profile: echo\n    system_prompt: Write.\n`,
      dir,
    );
    const store = new MemoryStore();
    const outcome = await runEnsemble(ensemble, { store, runId: 'r', profiles: registry }).then(
      (result) => JSON.stringify(result),
      (error: unknown) => String((error as Error).message),
    );
    expect(outcome).not.toContain(KEY);
    const dump: unknown[] = [];
    for (const thread of await store.listThreads())
      dump.push(thread, await store.readItems(thread.threadId));
    expect(JSON.stringify(dump)).toMatch(/401|Incorrect API key|REDACTED/);
    expect(JSON.stringify(dump)).not.toContain(KEY);
  });
});

describe('the CLI error line', () => {
  it('redacts secret-named environment values', () => {
    const script = `import { main } from './src/cli/main.ts'; process.argv = ['node','colloquy','invoke','/nonexistent/${KEY}.yaml']; await main(process.argv);`;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        env: { ...process.env, SOME_API_KEY: KEY },
        encoding: 'utf8',
      },
    );
    expect(child.stderr).toMatch(/^colloquy: error/m);
    expect(child.stderr).not.toContain(KEY);
  });
});
