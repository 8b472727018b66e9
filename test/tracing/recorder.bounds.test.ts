// A failing ensemble agent with a 3 MB error (issue 25): the stored trace keeps 2,000 characters
// of it, as docs/observability.md says, and so does every span the recorder hands to listeners.
import { afterAll, describe, expect, it } from 'vitest';
import { createEnsembleTracer } from '../../src/ensembles/tracing.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { TRACE_TEXT_LIMIT } from '../../src/stores/traceBounds.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import type { SpanRecord } from '../../src/stores/traceStore.js';
import { getTraceRecorder, setupTracing, shutdownTracing } from '../../src/tracing/setup.js';

afterAll(() => shutdownTracing());

describe('TraceRecorder bounds', () => {
  it('stores an ensemble agent failing with a 3 MB error in a few KB', async () => {
    setupTracing({ env: {} });
    const ended: SpanRecord[] = [];
    const off = getTraceRecorder().subscribe({ onSpanEnd: (span) => ended.push(span) });
    const huge = `boom ${'e'.repeat(3_000_000)}`;
    const store = new MemoryStore();
    const tracer = await createEnsembleTracer({ store });
    tracer.onEvent({
      type: 'ensemble_started',
      run_id: 'big',
      ensemble: 'dag',
      resumed: false,
      turn_count: 0,
    });
    const agents = [
      'a',
      ...Array.from({ length: 300 }, (_, i) => `agent-${i}-${'n'.repeat(50_000)}`),
    ];
    tracer.onEvent({ type: 'step_started', step: 1, agents, turn_count: 0 });
    tracer.onEvent({ type: 'agent_started', step: 1, agent: 'a' });
    tracer.onEvent({
      type: 'agent_finished',
      step: 1,
      agent: 'a',
      success: false,
      execution_time: 0.1,
      error: huge,
    });
    await tracer.finish(new Error(huge));
    off();

    const traces = await traceStoreFor(store);
    const [summary] = await traces.listTraces({ runId: 'big' });
    const stored = (await traces.getTrace(summary!.traceId))!;
    expect(JSON.stringify(stored).length).toBeLessThan(300_000);
    const agent = stored.spans.find((span) => span.name === 'a')!;
    expect(agent.error!.message).toHaveLength(TRACE_TEXT_LIMIT + 1);
    expect(agent.error!.message.startsWith('boom eee')).toBe(true);
    const run = stored.spans.find((span) => span.kind === 'ensemble_run')!;
    expect(run.error!.message).toHaveLength(TRACE_TEXT_LIMIT + 1);
    const step = stored.spans.find((span) => span.kind === 'ensemble_step')!;
    expect(step.attributes.agents).toHaveLength(101);
    for (const span of ended)
      expect(JSON.stringify(span).length, span.name.slice(0, 40)).toBeLessThan(300_000);
  });
});
