// TraceRecorder driven directly with SDK-shaped spans: which spans are kept, folded or skipped,
// how agents, tokens, attempts and fallbacks are recorded, and where finished traces go.
import type { Span as SdkSpan, SpanData, Trace } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import {
  MemoryTraceStore,
  type StoredTrace,
  type TraceStore,
} from '../../src/stores/traceStore.js';
import { TraceRecorder, type TraceBinding } from '../../src/tracing/recorder.js';

const T = 'trace_1';
let clock = Date.UTC(2026, 0, 1);
const tick = () => new Date((clock += 100)).toISOString();

function sdkTrace(metadata: Record<string, unknown> = {}): Trace {
  return { traceId: T, name: 'agency t', metadata } as unknown as Trace;
}

/** A fake SDK span: start it and end it on the recorder in the order a real run would. */
function span(id: string, parent: string | null, data: SpanData, error?: string) {
  const value = {
    spanId: id,
    traceId: T,
    parentId: parent,
    spanData: data,
    startedAt: tick(),
    endedAt: null as string | null,
    error: error ? { message: error } : null,
  };
  return value as unknown as SdkSpan<SpanData> & { endedAt: string | null };
}

async function run(
  recorder: TraceRecorder,
  steps: Array<['start' | 'end', SdkSpan<SpanData> & { endedAt: string | null }]>,
  metadata: Record<string, unknown> = {},
): Promise<void> {
  await recorder.onTraceStart(sdkTrace(metadata));
  for (const [what, s] of steps) {
    if (what === 'start') await recorder.onSpanStart(s);
    else {
      s.endedAt = tick();
      await recorder.onSpanEnd(s);
    }
  }
  await recorder.onTraceEnd(sdkTrace(metadata));
}

async function record(
  steps: Parameters<typeof run>[1],
  metadata: Record<string, unknown> = {},
  binding: TraceBinding = {},
): Promise<StoredTrace> {
  const recorder = new TraceRecorder();
  const store = new MemoryTraceStore();
  recorder.bind(T, { store, ...binding });
  await run(recorder, steps, metadata);
  return (await store.getTrace(T))!;
}

const shape = (trace: StoredTrace) =>
  trace.spans.map((s) => {
    const parent = trace.spans.find((p) => p.spanId === s.parentId);
    return `${s.kind}:${s.name}<${parent ? parent.name : '-'}`;
  });

describe('TraceRecorder (unit)', () => {
  it('skips task and turn spans, moving their children up, and nests agents with caller and depth', async () => {
    const task = span('task', null, { type: 'task', name: 'x' } as SpanData);
    const a = span('a', 'task', { type: 'agent', name: 'A' });
    const turn = span('turn', 'a', { type: 'turn', turn: 1, agent_name: 'A' } as SpanData);
    const tool = span('tool', 'turn', {
      type: 'function',
      name: 'send_message',
      input: '{"recipient":"B"}',
      output: 'ok',
    });
    const b = span('b', 'tool', { type: 'agent', name: 'B' });
    const trace = await record([
      ['start', task],
      ['start', a],
      ['start', turn],
      ['start', tool],
      ['start', b],
      ['end', b],
      ['end', tool],
      ['end', turn],
      ['end', a],
      ['end', task],
    ]);
    expect(shape(trace)).toEqual([
      'agent:A<-',
      'send_message:send_message<A',
      'agent:B<send_message',
    ]);
    const [A, send, B] = trace.spans;
    expect(A!.attributes).toMatchObject({ agent: 'A', caller: null, depth: 0 });
    expect(B!.attributes).toMatchObject({ agent: 'B', caller: 'A', depth: 1 });
    expect(send!.attributes).toMatchObject({
      agent: 'A',
      recipient: 'B',
      input: '{"recipient":"B"}',
    });
    expect(B!.durationMs).toBeGreaterThan(0);
  });

  it('names a model span after its model, adds its tokens to its agent and to the summary', async () => {
    const a = span('a', null, { type: 'agent', name: 'A' });
    const g1 = span('g1', 'a', {
      type: 'generation',
      model: 'm-1',
      usage: { input_tokens: 5, output_tokens: 2 },
    } as SpanData);
    const g2 = span('g2', 'a', {
      type: 'generation',
      model: 'm-2',
      usage: { input_tokens: 7, output_tokens: 1 },
    } as SpanData);
    const trace = await record(
      [
        ['start', a],
        ['start', g1],
        ['end', g1],
        ['start', g2],
        ['end', g2],
        ['end', a],
      ],
      { chatId: 'c', runId: 'r', agency: 'team' },
    );
    expect(shape(trace)).toEqual(['agent:A<-', 'generation:m-1<A', 'generation:m-2<A']);
    expect(trace.spans[0]!.attributes).toMatchObject({ inputTokens: 12, outputTokens: 3 });
    expect(trace.spans[1]!.attributes).toMatchObject({ agent: 'A', model: 'm-1' });
    expect(trace.trace).toMatchObject({
      chatId: 'c',
      runId: 'r',
      agency: 'team',
      spanCount: 3,
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
    });
  });

  it('folds attempts into their model span: attempt number, provider, profile and fallback', async () => {
    const a = span('a', null, { type: 'agent', name: 'A' });
    const g = span('g', 'a', { type: 'generation', model: 'fallback' } as SpanData);
    const first = span('t1', 'g', {
      type: 'custom',
      name: 'model_attempt',
      data: { profile: 'fast', provider: 'openai', model: 'gpt-x', callAttempt: 1 },
    });
    const second = span('t2', 'g', {
      type: 'custom',
      name: 'model_attempt',
      data: { profile: 'backup', provider: 'ollama', model: 'llama', callAttempt: 2 },
    });
    const inner = span('inner', 'g', { type: 'generation', model: 'llama-3' } as SpanData);
    const trace = await record([
      ['start', a],
      ['start', g],
      ['start', first],
      ['end', first],
      ['start', second],
      ['start', inner],
      ['end', inner],
      ['end', second],
      ['end', g],
      ['end', a],
    ]);
    expect(trace.spans).toHaveLength(2);
    const model = trace.spans[1]!;
    expect(model.attributes).toMatchObject({
      provider: 'ollama',
      profile: 'backup',
      attempt: 2,
      fallback: true,
    });
    expect(model.attributes.attempts).toHaveLength(2);
    expect(model.name).toBe(String(model.attributes.model));
  });

  it("folds an ensemble agent's SDK agent span into its ensemble_agent span", async () => {
    const run = span('run', null, { type: 'custom', name: 'ensemble_run', data: { label: 'dag' } });
    const agentSpan = span('ea', 'run', {
      type: 'custom',
      name: 'ensemble_agent',
      data: { label: 'w', agent: 'w' },
    });
    const sdkAgent = span('sa', 'ea', { type: 'agent', name: 'w' });
    const g = span('g', 'sa', {
      type: 'generation',
      model: 'm',
      usage: { input_tokens: 4, output_tokens: 4 },
    } as SpanData);
    const other = span('oa', 'ea', { type: 'agent', name: 'helper' });
    const trace = await record([
      ['start', run],
      ['start', agentSpan],
      ['start', sdkAgent],
      ['start', g],
      ['end', g],
      ['end', sdkAgent],
      ['start', other],
      ['end', other],
      ['end', agentSpan],
      ['end', run],
    ]);
    expect(shape(trace)).toEqual([
      'ensemble_run:dag<-',
      'ensemble_agent:w<dag',
      'generation:m<w',
      'agent:helper<w',
    ]);
    expect(trace.spans[1]!.attributes).toMatchObject({ agent: 'w', inputTokens: 4 });
    expect(trace.spans[3]!.attributes).toMatchObject({ caller: 'w', depth: 1 });
  });

  it('keeps span errors (scrubbed of secrets) and ignores spans of unknown traces', async () => {
    const recorder = new TraceRecorder();
    recorder.secrets = ['sk-secret-value-123'];
    const store = new MemoryTraceStore();
    recorder.bind(T, { store });
    const stray = { ...span('x', null, { type: 'agent', name: 'X' }), traceId: 'other' };
    await recorder.onSpanStart(stray as SdkSpan<SpanData>);
    await recorder.onSpanEnd(stray as SdkSpan<SpanData>);
    const a = span('a', null, { type: 'agent', name: 'A' }, 'failed with sk-secret-value-123');
    await run(recorder, [
      ['start', a],
      ['end', a],
    ]);
    const trace = (await store.getTrace(T))!;
    expect(trace.spans).toHaveLength(1);
    expect(trace.spans[0]!.error!.message).not.toContain('sk-secret-value-123');
    expect(trace.spans[0]!.error!.message).toMatch(/^failed with /);
  });

  it('saves to the bound store, else the default store; not at all when not persisting or not exported', async () => {
    const recorder = new TraceRecorder();
    const fallback = new MemoryTraceStore();
    recorder.defaultStore = fallback;
    const told: Array<boolean | undefined> = [];
    recorder.subscribe({ onTraceEnd: (_trace, binding) => void told.push(binding.export) });
    await run(recorder, []);
    expect(await fallback.listTraces()).toHaveLength(1);

    const quiet = new MemoryTraceStore();
    recorder.bind(T, { store: quiet, export: false });
    await run(recorder, []);
    recorder.persist = false;
    recorder.bind(T, { store: quiet });
    await run(recorder, []);
    expect(await quiet.listTraces()).toEqual([]);
    expect(told).toEqual([undefined, false, false]);
  });

  it('keeps running when saving fails: the failure is logged, listeners still hear of the trace', async () => {
    const recorder = new TraceRecorder();
    const broken: TraceStore = Object.assign(new MemoryTraceStore(), {
      kind: 'broken',
      saveTrace: async () => {
        throw new Error('disk full');
      },
    });
    let heard = 0;
    recorder.subscribe({ onTraceEnd: () => void (heard += 1) });
    recorder.bind(T, { store: broken });
    await expect(run(recorder, [])).resolves.toBeUndefined();
    await recorder.forceFlush();
    await recorder.shutdown();
    expect(heard).toBe(1);
  });

  it('drops message text for a trace bound with content: false', async () => {
    const tool = span('f', null, {
      type: 'function',
      name: 'lookup',
      input: 'secret plan',
      output: 'the answer',
    });
    const trace = await record(
      [
        ['start', tool],
        ['end', tool],
      ],
      {},
      { content: false },
    );
    expect(trace.spans[0]!.attributes).toEqual({ tool: 'lookup' });
  });
});
