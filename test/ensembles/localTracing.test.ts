import { afterAll, describe, expect, it } from 'vitest';
import type { EnsembleEvent } from '../../src/ensembles/events.js';
import { canTraceLocally, createLocalEnsembleTracer } from '../../src/ensembles/localTracing.js';
import { ensembleFileSchema, normalizeEnsemble } from '../../src/ensembles/schema.js';
import type { EnsembleTracer } from '../../src/ensembles/traceEvents.js';
import { createEnsembleTracer } from '../../src/ensembles/tracing.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { resolveTracing } from '../../src/tracing/resolve.js';
import { setupTracing, shutdownTracing } from '../../src/tracing/setup.js';

afterAll(() => shutdownTracing());

const EVENTS: EnsembleEvent[] = [
  { type: 'ensemble_started', run_id: 'r1', ensemble: 'dag', resumed: false, turn_count: 0 },
  { type: 'step_started', step: 1, agents: ['a', 'b'], turn_count: 0 },
  { type: 'agent_started', step: 1, agent: 'a' },
  { type: 'agent_started', step: 1, agent: 'b' },
  { type: 'agent_finished', step: 1, agent: 'a', success: true, execution_time: 0.1 },
  {
    type: 'agent_finished',
    step: 1,
    agent: 'b',
    success: false,
    execution_time: 0.2,
    error: 'boom sk-secret-value-123',
  },
  { type: 'step_started', step: 2, agents: ['c'], turn_count: 2 },
  { type: 'agent_started', step: 2, agent: 'c' },
];

/** Feeds the events, ends the run with an error and returns the stored spans, comparable. */
async function recorded(make: (store: MemoryStore) => Promise<EnsembleTracer>) {
  const store = new MemoryStore();
  const tracer = await make(store);
  for (const event of EVENTS) tracer.onEvent(event);
  await tracer.finish(new Error('interrupted'));
  const traces = await traceStoreFor(store);
  const [summary] = await traces.listTraces({ runId: 'r1' });
  const { spans } = (await traces.getTrace(summary!.traceId))!;
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  return {
    summary: { name: summary!.name, runId: summary!.runId, spanCount: summary!.spanCount },
    spans: spans.map((span) => ({
      kind: span.kind,
      name: span.name,
      parent: span.parentId ? byId.get(span.parentId)!.name : null,
      attributes: Object.keys(span.attributes).sort(),
      success: span.attributes.success,
      error: span.error,
      timed: typeof span.durationMs === 'number',
    })),
  };
}

const ensemble = (agents: Array<Record<string, unknown>>) =>
  normalizeEnsemble(ensembleFileSchema.parse({ name: 'e', agents }));

describe('createLocalEnsembleTracer', () => {
  it('saves the same trace as the SDK tracer, secrets scrubbed, without the SDK', async () => {
    const env = { OPENAI_API_KEY: '', COLLOQUY_API_KEY: 'sk-secret-value-123' };
    setupTracing({ env });
    const sdk = await recorded((store) => createEnsembleTracer({ store }));
    const local = await recorded((store) =>
      createLocalEnsembleTracer(resolveTracing(env), { store }),
    );
    expect(local).toEqual(sdk);
    expect(local.spans.map((span) => `${span.kind}:${span.name}<${span.parent}`)).toEqual([
      'ensemble_run:dag<null',
      'ensemble_step:step 1<dag',
      'ensemble_agent:a<step 1',
      'ensemble_agent:b<step 1',
      'ensemble_step:step 2<dag',
      'ensemble_agent:c<step 2',
    ]);
    expect(local.spans[3]!.error!.message).not.toContain('sk-secret-value-123');
    expect(local.summary.spanCount).toBe(6);
  });

  it('records nothing when tracing is off', async () => {
    const store = new MemoryStore();
    const tracer = await createLocalEnsembleTracer(resolveTracing({ COLLOQUY_TRACING: 'off' }), {
      store,
    });
    for (const event of EVENTS) tracer.onEvent(event);
    await tracer.finish();
    expect(await (await traceStoreFor(store)).listTraces()).toEqual([]);
  });

  it('is used only for script-only runs with no exporter that reads SDK spans', () => {
    const scripts = ensemble([
      { name: 'a', script: 'echo 1' },
      { name: 'b', script: 'echo 2', depends_on: ['a'] },
    ]);
    const none = resolveTracing({});
    expect(canTraceLocally(scripts, none)).toBe(true);
    expect(canTraceLocally(scripts, resolveTracing({ OPENAI_API_KEY: 'sk-test-key-1' }))).toBe(
      false,
    );
    expect(
      canTraceLocally(scripts, resolveTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x:4318' })),
    ).toBe(false);
    const withModel = ensemble([
      { name: 'a', script: 'echo 1' },
      { name: 'b', model_profile: 'fast', depends_on: ['a'] },
    ]);
    expect(canTraceLocally(withModel, none)).toBe(false);
  });
});
