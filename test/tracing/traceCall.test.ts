// traceCall: one trace per call with its chat, run and agency, saved with the thread store's
// trace store; nothing new inside an open trace; tracing: false and content: false per call.
import { getCurrentTrace, withCustomSpan, withFunctionSpan } from '@openai/agents-core';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/stores/memory.js';
import type { StoredTrace } from '../../src/stores/traceStore.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { traceCall } from '../../src/tracing/traceCall.js';
import { getTraceRecorder, setupTracing, shutdownTracing } from '../../src/tracing/setup.js';

afterAll(() => shutdownTracing());

let ended: Array<{ trace: StoredTrace; exported: boolean | undefined }> = [];
let unsubscribe: () => unknown = () => undefined;
afterEach(() => unsubscribe());
beforeEach(() => {
  setupTracing({ env: {} });
  ended = [];
  unsubscribe = getTraceRecorder().subscribe({
    onTraceEnd: (trace, binding) => void ended.push({ trace, exported: binding.export }),
  });
});

async function tool(input: string): Promise<void> {
  await withFunctionSpan(
    async (span) => {
      span.spanData.input = input;
      span.spanData.output = `looked up ${input}`;
    },
    { data: { name: 'lookup' } },
  );
}

describe('traceCall', () => {
  it("opens one trace named for the call, with its ids, saved with the store's traces", async () => {
    const store = new MemoryStore();
    const result = await traceCall(
      { name: 'agency support', chatId: 'c1', runId: 'r1', agency: 'support', store },
      async () => {
        expect(getCurrentTrace()?.name).toBe('agency support');
        await tool('order 42');
        return 'done';
      },
    );
    expect(result).toBe('done');
    const traces = await traceStoreFor(store);
    const [summary] = await traces.listTraces({ chatId: 'c1' });
    expect(summary).toMatchObject({
      name: 'agency support',
      chatId: 'c1',
      runId: 'r1',
      agency: 'support',
      spanCount: 1,
    });
    const stored = (await traces.getTrace(summary!.traceId))!;
    expect(stored.spans[0]).toMatchObject({
      kind: 'function',
      name: 'lookup',
      attributes: { tool: 'lookup', input: 'order 42', output: 'looked up order 42' },
    });
  });

  it('adds no trace inside an open one: nested calls join it', async () => {
    const store = new MemoryStore();
    await traceCall({ name: 'outer', chatId: 'c2', store }, async () => {
      const outer = getCurrentTrace();
      await traceCall({ name: 'inner', chatId: 'c2', store }, async () => {
        expect(getCurrentTrace()).toBe(outer);
        await withCustomSpan(async () => undefined, { data: { name: 'inner work' } });
      });
    });
    const traces = await (await traceStoreFor(store)).listTraces({ chatId: 'c2' });
    expect(traces.map((trace) => trace.name)).toEqual(['outer']);
    expect(traces[0]!.spanCount).toBe(1);
  });

  it('saves and exports nothing with enabled: false, but listeners still see the trace', async () => {
    const store = new MemoryStore();
    await traceCall({ name: 'quiet', chatId: 'c3', store, enabled: false }, () => tool('x'));
    expect(await (await traceStoreFor(store)).listTraces()).toEqual([]);
    expect(ended.map((entry) => [entry.trace.trace.name, entry.exported])).toEqual([
      ['quiet', false],
    ]);
  });

  it('keeps no tool text with content: false', async () => {
    const store = new MemoryStore();
    await traceCall({ name: 'private', chatId: 'c4', store, content: false }, () =>
      tool('my address'),
    );
    const traces = await traceStoreFor(store);
    const [summary] = await traces.listTraces({ chatId: 'c4' });
    const stored = (await traces.getTrace(summary!.traceId))!;
    expect(stored.spans[0]!.attributes).toEqual({ tool: 'lookup' });
    expect(JSON.stringify(ended)).not.toContain('my address');
  });

  it('passes the error of the work through, still recording the trace', async () => {
    const store = new MemoryStore();
    await expect(
      traceCall({ name: 'failing', chatId: 'c5', store }, async () => {
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(ended.map((entry) => entry.trace.trace.name)).toEqual(['failing']);
  });
});
