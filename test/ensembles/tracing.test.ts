import { afterAll, describe, expect, it } from 'vitest';
import { createEnsembleTracer } from '../../src/ensembles/tracing.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { setupTracing, shutdownTracing } from '../../src/tracing/setup.js';

afterAll(() => shutdownTracing());

describe('createEnsembleTracer', () => {
  it('turns ensemble events into one trace: run → step → agent, with failures as errors', async () => {
    setupTracing({ env: {} });
    const store = new MemoryStore();
    const tracer = await createEnsembleTracer({ store });
    tracer.onEvent({
      type: 'ensemble_started',
      run_id: 'r1',
      ensemble: 'dag',
      resumed: false,
      turn_count: 0,
    });
    tracer.onEvent({ type: 'step_started', step: 1, agents: ['a', 'b'], turn_count: 0 });
    tracer.onEvent({ type: 'agent_started', step: 1, agent: 'a' });
    tracer.onEvent({ type: 'agent_started', step: 1, agent: 'b' });
    tracer.onEvent({
      type: 'agent_finished',
      step: 1,
      agent: 'a',
      success: true,
      execution_time: 0.1,
    });
    tracer.onEvent({
      type: 'agent_finished',
      step: 1,
      agent: 'b',
      success: false,
      execution_time: 0.2,
      error: 'boom',
    });
    tracer.onEvent({ type: 'step_started', step: 2, agents: ['c'], turn_count: 2 });
    tracer.onEvent({ type: 'agent_started', step: 2, agent: 'c' });
    await tracer.finish(new Error('interrupted'));

    const traces = await traceStoreFor(store);
    const [summary] = await traces.listTraces({ runId: 'r1' });
    expect(summary).toMatchObject({ name: 'ensemble dag', runId: 'r1', spanCount: 6 });
    const { spans } = (await traces.getTrace(summary!.traceId))!;
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const shape = spans.map(
      (span) => `${span.kind}:${span.name}<${span.parentId ? byId.get(span.parentId)!.name : '-'}`,
    );
    expect(shape).toEqual([
      'ensemble_run:dag<-',
      'ensemble_step:step 1<dag',
      'ensemble_agent:a<step 1',
      'ensemble_agent:b<step 1',
      'ensemble_step:step 2<dag',
      'ensemble_agent:c<step 2',
    ]);
    expect(spans.find((span) => span.name === 'b')!.error).toEqual({ message: 'boom' });
    expect(spans.find((span) => span.name === 'dag')!.error).toEqual({ message: 'interrupted' });
  });

  it('records nothing when disabled', async () => {
    setupTracing({ env: {} });
    const store = new MemoryStore();
    const tracer = await createEnsembleTracer({ store, enabled: false });
    tracer.onEvent({
      type: 'ensemble_started',
      run_id: 'r2',
      ensemble: 'x',
      resumed: false,
      turn_count: 0,
    });
    await tracer.finish();
    expect(await (await traceStoreFor(store)).listTraces()).toEqual([]);
  });
});
