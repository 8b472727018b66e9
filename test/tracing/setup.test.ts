// setupTracing: one shared recorder, the environment switches (COLLOQUY_TRACING,
// COLLOQUY_TRACE_CONTENT, secrets), registering again when the SDK's processors were replaced,
// extra processors, and flush/shutdown.
import {
  BatchTraceProcessor,
  getGlobalTraceProvider,
  setTraceProcessors,
  withTrace,
  type TracingExporter,
  type TracingProcessor,
} from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTraceStore, type StoredTrace } from '../../src/stores/traceStore.js';
import {
  flushTracing,
  getTraceRecorder,
  setupTracing,
  shutdownTracing,
  tracingOffByEnv,
} from '../../src/tracing/setup.js';
import { traceCall } from '../../src/tracing/traceCall.js';

afterEach(() => shutdownTracing());

async function oneTrace(name: string): Promise<void> {
  await withTrace(name, async () => undefined);
}

/** A trace opened as an agency call opens one (registering Colloquy again if it was replaced). */
async function oneCall(name: string): Promise<void> {
  await traceCall({ name }, async () => undefined);
}

describe('tracingOffByEnv', () => {
  it('reads COLLOQUY_TRACING=off|false|0|no in any case, and nothing else', () => {
    for (const value of ['off', 'OFF', 'false', '0', 'no'])
      expect(tracingOffByEnv({ COLLOQUY_TRACING: value })).toBe(true);
    for (const value of [undefined, '', 'on', '1', 'offline'])
      expect(tracingOffByEnv({ COLLOQUY_TRACING: value })).toBe(false);
  });
});

describe('setupTracing', () => {
  it('keeps one recorder across calls and applies the latest options', () => {
    const first = setupTracing({ env: {} });
    const second = setupTracing({
      env: { COLLOQUY_TRACING: 'off', COLLOQUY_TRACE_CONTENT: 'off' },
    });
    expect(second).toBe(first);
    expect(second.persist).toBe(false);
    expect(second.content).toBe(false);
    expect(getTraceRecorder()).toBe(first);
    const third = setupTracing({ enabled: true, content: true, env: { COLLOQUY_TRACING: 'off' } });
    expect(third.persist).toBe(true);
    expect(third.content).toBe(true);
  });

  it('scrubs the API keys of the environment (8 characters or more) from spans', () => {
    const recorder = setupTracing({
      env: {
        OPENAI_API_KEY: 'sk-long-enough-key',
        ANTHROPIC_API_KEY: 'short',
        COLLOQUY_API_KEY: 'colloquy-key-1',
      },
      openai: false,
    });
    expect(recorder.secrets).toEqual(['sk-long-enough-key', 'colloquy-key-1']);
  });

  it('saves traces without a bound store to the default store, and feeds extra processors', async () => {
    const store = new MemoryTraceStore();
    const seen: string[] = [];
    const extra: TracingProcessor = {
      onTraceStart: async (trace) => void seen.push(`start ${trace.name}`),
      onTraceEnd: async (trace) => void seen.push(`end ${trace.name}`),
      onSpanStart: async () => {},
      onSpanEnd: async () => {},
      shutdown: async () => {},
      forceFlush: async () => {},
    };
    setupTracing({ env: {}, store, processors: [extra] });
    await oneTrace('plain');
    await flushTracing();
    expect((await store.listTraces()).map((trace) => trace.name)).toEqual(['plain']);
    expect(seen).toEqual(['start plain', 'end plain']);
  });

  it('registers the recorder again when processors are replaced, dropping the OpenAI batch exporter', async () => {
    const store = new MemoryTraceStore();
    setupTracing({ env: {}, store });
    const exported: unknown[] = [];
    const exporter: TracingExporter = { export: async (items) => void exported.push(...items) };
    const batch = new BatchTraceProcessor(exporter, { scheduleDelay: 10 });
    // What importing @openai/agents does: replace every processor with its batch exporter.
    setTraceProcessors([batch]);
    await oneCall('after replace');
    await getGlobalTraceProvider().forceFlush();
    await flushTracing();
    expect((await store.listTraces()).map((trace) => trace.name)).toEqual(['after replace']);
    expect(exported).toEqual([]);
    await batch.shutdown();
  });

  it('lets a later setup swap the recorder settings', async () => {
    const store = new MemoryTraceStore();
    setupTracing({ env: {}, store });
    setupTracing({ env: { COLLOQUY_TRACING: 'off' }, store });
    const ended: StoredTrace[] = [];
    getTraceRecorder().subscribe({ onTraceEnd: (trace) => void ended.push(trace) });
    setTraceProcessors([]);
    await oneCall('not saved');
    await flushTracing();
    expect(ended.map((trace) => trace.trace.name)).toEqual(['not saved']);
    expect(await store.listTraces()).toEqual([]);
  });
});

describe('flushTracing and shutdownTracing', () => {
  it('wait for slow saves to finish', async () => {
    const store = new MemoryTraceStore();
    const save = store.saveTrace.bind(store);
    store.saveTrace = async (trace) => {
      // sleep-ok: the scenario: a save that takes time; the test then awaits flush, not a timer.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await save(trace);
    };
    setupTracing({ env: {}, store });
    const running = oneTrace('slow');
    await flushTracing();
    await running;
    await shutdownTracing();
    expect(await store.listTraces()).toHaveLength(1);
  });

  it('are no-ops before setup, and setup starts afresh after shutdown', async () => {
    await shutdownTracing();
    await expect(flushTracing()).resolves.toBeUndefined();
    await expect(shutdownTracing()).resolves.toBeUndefined();
    const before = setupTracing({ env: {} });
    await shutdownTracing();
    expect(getTraceRecorder()).not.toBe(before);
  });
});
