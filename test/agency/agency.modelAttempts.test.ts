/**
 * Model attempts (retries, fallbacks) of profile models show up in the agency's stream as
 * `model_attempt` events of the run that made them, nested runs included.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import type { AgencyStreamEvent, ModelAttemptEvent } from '../../src/agency/events.js';
import { createLogger } from '../../src/logger.js';
import type { ModelProfile } from '../../src/models/profile.js';
import { createProfileRegistry } from '../../src/models/profiles.js';
import { createModel, profileModelSettings } from '../../src/models/resolve.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { openaiChatProtocol } from '../models/wireServers/openaiChat.js';
import { startWireServer, type WireServer } from '../models/wireServers/wireServer.js';
import { send } from './helpers.js';

describe('model attempts as run events', () => {
  let server: WireServer | undefined;
  afterEach(async () => server?.close());

  it('tags each retry and fallback with the run that made it', async () => {
    // The sub-agent's profile model gets a 429, then a 500 twice (past its one retry), then
    // falls back to a scripted profile.
    server = await startWireServer(openaiChatProtocol, [
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 500 },
    ]);
    const profiles: Record<string, ModelProfile> = {
      flaky: {
        provider: 'openai-compatible',
        model: 'flaky',
        base_url: server.baseUrl,
        api_key_env: 'FLAKY_KEY',
        max_retries: 1,
        retry_backoff: { initial_delay_ms: 1, max_delay_ms: 2, jitter: false },
        fallback_model_profile: 'steady',
      },
      steady: { provider: 'scripted', model: 'steady', script: ['steady answer'] },
    };
    const registry = createProfileRegistry([{ source: 'test', baseDir: process.cwd(), profiles }]);
    const worker = new Agent({
      name: 'Worker',
      instructions: 'w',
      model: createModel('flaky', registry, {
        env: { FLAKY_KEY: 'k' },
        logger: createLogger({ level: 'silent' }),
        record: false,
      }),
      modelSettings: profileModelSettings('flaky', registry),
    });
    const boss = new Agent({
      name: 'Boss',
      instructions: 'b',
      model: new ScriptedModel([
        send('Worker', 'do it'),
        (r) => `Boss: ${toolOutputsSinceUser(r)[0]}`,
      ]),
    });
    const agency = new Agency({ entryPoints: [boss], communicationFlows: [[boss, worker]] });

    const events: AgencyStreamEvent[] = [];
    for await (const event of agency.getResponseStream('go')) events.push(event);
    const attempts = events.filter((e): e is ModelAttemptEvent => e.type === 'model_attempt');
    expect(
      attempts.map((e) => [
        e.agent,
        e.callerAgent,
        e.depth,
        e.attempt.profile,
        e.attempt.outcome,
        e.attempt.next ?? null,
      ]),
    ).toEqual([
      ['Worker', 'Boss', 1, 'flaky', 'error', 'retry'],
      ['Worker', 'Boss', 1, 'flaky', 'error', 'fallback'],
      ['Worker', 'Boss', 1, 'steady', 'success', null],
    ]);
    expect(attempts[0]!.attempt.status).toBe(429);
    const workerRun = events.find((e) => e.type === 'agent_run_started' && e.agent === 'Worker');
    expect(attempts.every((e) => e.runId === (workerRun as { runId: string }).runId)).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: 'run_completed',
      result: { finalOutput: 'Boss: steady answer' },
    });
  });
});
