/**
 * The end-to-end cases every provider passes over its wire protocol: createModel + Runner +
 * base_url against a loopback server. Each provider's test file calls this with its protocol.
 */
import { Agent, Runner, tool } from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../../src/logger.js';
import type { ModelAttempt } from '../../../src/models/attempts.js';
import type { ModelProfile } from '../../../src/models/profile.js';
import { createProfileRegistry } from '../../../src/models/profiles.js';
import { createModel, profileModelSettings } from '../../../src/models/resolve.js';
import { startWireServer } from './wireServer.js';
import type { WireProtocol, WireReply, WireResponder, WireServer } from './wireServer.js';

/** What a provider's test supplies. */
export interface ProviderWireSpec {
  name: string;
  protocol: WireProtocol;
  /** The profile under test, pointed at the server. */
  profile(baseUrl: string): ModelProfile;
  /** The environment (API keys) the profile needs. */
  env: NodeJS.ProcessEnv;
  /** The tool-call ids answered by tool results in a request body. */
  toolResultIds(body: Record<string, any>): string[];
  /** Whether the protocol can carry several tool calls in one response (default true). */
  parallelToolCalls?: boolean;
}

const fastRetry = { initial_delay_ms: 1, max_delay_ms: 5, jitter: false, max_retry_after_ms: 80 };

/** Registers the provider's wire tests. */
export function runProviderWireTests(spec: ProviderWireSpec): void {
  describe(`${spec.name} over the wire`, () => {
    let server: WireServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    async function setup(
      replies: WireReply[] | WireResponder,
      overrides: Partial<ModelProfile> = {},
    ) {
      server = await startWireServer(spec.protocol, replies);
      const attempts: ModelAttempt[] = [];
      const profiles = {
        primary: { ...spec.profile(server.baseUrl), retry_backoff: fastRetry, ...overrides },
        backup: { provider: 'scripted', model: 'backup', script: ['from backup'] } as ModelProfile,
      };
      const registry = createProfileRegistry([
        { source: 'test', baseDir: process.cwd(), profiles },
      ]);
      const logger = createLogger({ level: 'silent' });
      const model = createModel('primary', registry, {
        env: spec.env,
        logger,
        onAttempt: (a) => attempts.push(a),
        record: false,
      });
      const settings = profileModelSettings('primary', registry);
      return { model, settings, attempts, server };
    }

    it('answers plain text', async () => {
      const { model, settings, server: wire } = await setup([{ text: 'Hello from the wire' }]);
      const agent = new Agent({
        name: 'A',
        instructions: 'Be brief.',
        model,
        modelSettings: settings,
      });
      const result = await new Runner({ tracingDisabled: true }).run(agent, 'hi');
      expect(result.finalOutput).toBe('Hello from the wire');
      expect(wire.requests[0]!.body.model).toBe(spec.profile(wire.baseUrl).model);
      expect(JSON.stringify(wire.requests[0]!.body)).toContain('hi');
    });

    it('streams text in several deltas', async () => {
      const { model, settings } = await setup([{ text: 'A streamed answer in pieces' }]);
      const agent = new Agent({
        name: 'A',
        instructions: 'Be brief.',
        model,
        modelSettings: settings,
      });
      const result = await new Runner({ tracingDisabled: true }).run(agent, 'hi', { stream: true });
      const deltas: string[] = [];
      for await (const event of result) {
        if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta')
          deltas.push(event.data.delta);
      }
      await result.completed;
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('A streamed answer in pieces');
      expect(result.finalOutput).toBe('A streamed answer in pieces');
    });

    it('round-trips tool calls with unique call ids', async () => {
      const parallel = spec.parallelToolCalls ?? true;
      const calls = parallel
        ? [
            { name: 'add', args: { a: 1, b: 2 } },
            { name: 'add', args: { a: 3, b: 4 } },
          ]
        : [{ name: 'add', args: { a: 1, b: 2 } }];
      const {
        model,
        settings,
        server: wire,
      } = await setup((_body, index) => (index === 0 ? { tools: calls } : { text: 'sums done' }));
      const seen: number[] = [];
      const add = tool({
        name: 'add',
        description: 'Adds two numbers.',
        parameters: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => {
          seen.push(a + b);
          return String(a + b);
        },
      });
      const agent = new Agent({
        name: 'A',
        instructions: 'Use add.',
        model,
        modelSettings: settings,
        tools: [add],
      });
      const result = await new Runner({ tracingDisabled: true }).run(agent, 'add things');
      expect(result.finalOutput).toBe('sums done');
      expect(seen.sort()).toEqual(parallel ? [3, 7] : [3]);
      const ids = spec.toolResultIds(wire.requests[1]!.body);
      expect(ids).toHaveLength(calls.length);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('retries a 429 after its Retry-After, then succeeds', async () => {
      const {
        model,
        settings,
        attempts,
        server: wire,
      } = await setup([
        { status: 429, headers: { 'retry-after': '1' } },
        { text: 'after the rate limit' },
      ]);
      const agent = new Agent({ name: 'A', instructions: 'x', model, modelSettings: settings });
      const started = Date.now();
      const result = await new Runner({ tracingDisabled: true }).run(agent, 'hi');
      expect(result.finalOutput).toBe('after the rate limit');
      expect(Date.now() - started).toBeGreaterThanOrEqual(75); // Retry-After (capped at 80 ms), not the 1 ms backoff
      expect(wire.requests.filter((r) => r.path === spec.protocol.path)).toHaveLength(2);
      expect(attempts.map((a) => [a.outcome, a.status, a.next])).toEqual([
        ['error', 429, 'retry'],
        ['success', undefined, undefined],
      ]);
    });

    it('falls back to the fallback profile after a 500 outlasts the retries', async () => {
      const {
        model,
        settings,
        attempts,
        server: wire,
      } = await setup([{ status: 500 }], {
        max_retries: 1,
        fallback_model_profile: 'backup',
      });
      const agent = new Agent({ name: 'A', instructions: 'x', model, modelSettings: settings });
      const result = await new Runner({ tracingDisabled: true }).run(agent, 'hi');
      expect(result.finalOutput).toBe('from backup');
      expect(wire.requests).toHaveLength(2);
      expect(attempts.map((a) => `${a.profile}:${a.outcome}:${a.next ?? ''}`)).toEqual([
        'primary:error:retry',
        'primary:error:fallback',
        'backup:success:',
      ]);
    });

    it('times out a hung request', async () => {
      const { model, settings, attempts } = await setup([{ hangMs: 5_000 }], {
        timeout_seconds: 0.2,
        max_retries: 0,
      });
      const agent = new Agent({ name: 'A', instructions: 'x', model, modelSettings: settings });
      const started = Date.now();
      await expect(new Runner({ tracingDisabled: true }).run(agent, 'hi')).rejects.toThrow(
        /timed out/i,
      );
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(attempts[0]).toMatchObject({ outcome: 'error', errorKind: 'timeout', next: 'fail' });
    });
  });
}
