// How each provider's HTTP errors map onto Colloquy's decisions, over its own wire format on a
// loopback server: which statuses fail at once, which fall back, and that a provider echoing the
// API key in its error body never lets it through.
import { Agent, Runner } from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { ModelAttempt } from '../../src/models/attempts.js';
import { isModelError } from '../../src/models/modelError.js';
import type { ModelProfile } from '../../src/models/profile.js';
import { createProfileRegistry } from '../../src/models/profiles.js';
import { createModel, profileModelSettings } from '../../src/models/resolve.js';
import { anthropicMessagesProtocol } from './wireServers/anthropicMessages.js';
import { openaiChatProtocol } from './wireServers/openaiChat.js';
import { openaiResponsesProtocol } from './wireServers/openaiResponses.js';
import { startWireServer } from './wireServers/wireServer.js';
import type { WireProtocol, WireReply, WireServer } from './wireServers/wireServer.js';

interface Provider {
  name: string;
  protocol: WireProtocol;
  profile(baseUrl: string): ModelProfile;
  key: string;
  env: NodeJS.ProcessEnv;
}

const OPENAI_KEY = 'sk-proj-errormapping0000000000000';
const ANTHROPIC_KEY = 'sk-ant-errormapping00000000000000';
const providers: Provider[] = [
  {
    name: 'openai responses',
    protocol: openaiResponsesProtocol,
    profile: (baseUrl) => ({ provider: 'openai', model: 'gpt-test', base_url: baseUrl }),
    key: OPENAI_KEY,
    env: { OPENAI_API_KEY: OPENAI_KEY },
  },
  {
    name: 'openai chat',
    protocol: openaiChatProtocol,
    profile: (baseUrl) => ({
      provider: 'openai',
      api: 'chat',
      model: 'gpt-test',
      base_url: baseUrl,
    }),
    key: OPENAI_KEY,
    env: { OPENAI_API_KEY: OPENAI_KEY },
  },
  {
    name: 'anthropic',
    protocol: anthropicMessagesProtocol,
    profile: (baseUrl) => ({ provider: 'anthropic', model: 'claude-test', base_url: baseUrl }),
    key: ANTHROPIC_KEY,
    env: { ANTHROPIC_API_KEY: ANTHROPIC_KEY },
  },
];

const fastRetry = { initial_delay_ms: 1, max_delay_ms: 5, jitter: false, max_retry_after_ms: 20 };

let server: WireServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function call(
  provider: Provider,
  replies: WireReply[],
  overrides: Partial<ModelProfile> = {},
) {
  server = await startWireServer(provider.protocol, replies);
  const profiles = {
    primary: {
      ...provider.profile(server.baseUrl),
      retry_backoff: fastRetry,
      fallback_model_profile: 'backup',
      ...overrides,
    },
    backup: { provider: 'scripted', model: 'backup', script: ['from backup'] } as ModelProfile,
  };
  const registry = createProfileRegistry([{ source: 'test', baseDir: process.cwd(), profiles }]);
  const attempts: ModelAttempt[] = [];
  const model = createModel('primary', registry, {
    env: provider.env,
    logger: createLogger({ level: 'silent' }),
    onAttempt: (attempt) => attempts.push(attempt),
    record: false,
  });
  const agent = new Agent({
    name: 'A',
    instructions: 'x',
    model,
    modelSettings: profileModelSettings('primary', registry),
  });
  const outcome = await new Runner({ tracingDisabled: true }).run(agent, 'hi').then(
    (result) => ({ output: result.finalOutput as unknown, error: undefined }),
    (error: unknown) => ({ output: undefined, error: error as Error }),
  );
  const modelRequests = server.requests.filter((r) => r.path === provider.protocol.path).length;
  return { ...outcome, attempts, modelRequests };
}

describe.each(providers)('$name error mapping', (provider) => {
  it.each([400, 401, 403, 404, 422])(
    'HTTP %i fails at once: no retry, no fallback',
    async (status) => {
      const { error, attempts, modelRequests } = await call(provider, [{ status }], {
        max_retries: 3,
      });
      expect(error).toBeInstanceOf(Error);
      expect(isModelError(error)).toBe(true);
      expect(modelRequests).toBe(1);
      expect(attempts).toEqual([
        expect.objectContaining({ outcome: 'error', errorKind: 'status', status, next: 'fail' }),
      ]);
    },
  );

  it.each([408, 409, 503, 504])('HTTP %i is retried, then falls back', async (status) => {
    const { output, attempts, modelRequests } = await call(provider, [{ status }], {
      max_retries: 1,
    });
    expect(output).toBe('from backup');
    expect(modelRequests).toBe(2);
    expect(attempts.map((a) => [a.profile, a.status, a.next])).toEqual([
      ['primary', status, 'retry'],
      ['primary', status, 'fallback'],
      ['backup', undefined, undefined],
    ]);
  });

  it('never lets an API key echoed in the error body through', async () => {
    const echo = {
      status: 401,
      body: {
        error: {
          message: `Incorrect API key provided: ${provider.key}`,
          type: 'invalid_request_error',
        },
        type: 'error',
      },
    };
    const { error, attempts } = await call(provider, [echo]);
    expect(error).toBeInstanceOf(Error);
    const seen = [error!.message, String(error!.stack), JSON.stringify(attempts)];
    let cause: unknown = error;
    while (cause instanceof Error) {
      seen.push(cause.message, JSON.stringify(cause));
      cause = cause.cause;
    }
    for (const text of seen) expect(text).not.toContain(provider.key);
  });

  it('names the refused address when nothing listens', async () => {
    server = await startWireServer(provider.protocol, [{ text: 'unused' }]);
    const baseUrl = server.baseUrl;
    await server.close();
    server = undefined;
    const registry = createProfileRegistry([
      {
        source: 'test',
        baseDir: process.cwd(),
        profiles: {
          only: { ...provider.profile(baseUrl), max_retries: 0, retry_backoff: fastRetry },
        },
      },
    ]);
    const model = createModel('only', registry, {
      env: provider.env,
      logger: createLogger({ level: 'silent' }),
      record: false,
    });
    const agent = new Agent({
      name: 'A',
      instructions: 'x',
      model,
      modelSettings: profileModelSettings('only', registry),
    });
    const error = (await new Runner({ tracingDisabled: true })
      .run(agent, 'hi')
      .catch((caught: unknown) => caught)) as Error & { code?: string };
    expect(error.code).toBe('MODEL_ERROR');
    expect(error.message).toMatch(
      /connection refused by 127\.0\.0\.1:\d+: is the server running\?/,
    );
    expect(error.message).toContain('Model profile "only"');
  });
});
