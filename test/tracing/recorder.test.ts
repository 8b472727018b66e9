import { Runner } from '@openai/agents-core';
import { afterAll, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { createDemoAgency } from '../../src/demo/demoAgency.js';
import { lastUserText, toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { getTraceRecorder, setupTracing, shutdownTracing } from '../../src/tracing/setup.js';
import type { SpanRecord } from '../../src/stores/traceStore.js';

afterAll(() => shutdownTracing());

function threads(): ThreadManager {
  return new ThreadManager({ store: new MemoryStore() });
}

describe('TraceRecorder', () => {
  it('records one trace per agency call with agent, model and send_message spans nested', async () => {
    setupTracing({ env: {} });
    const agency = createDemoAgency({ threads: threads() });
    const result = await agency.getResponse('Write a brief about tides.', { chatId: 'rec-1' });
    const traces = await traceStoreFor(agency.threads.store);
    const [summary] = await traces.listTraces({ chatId: 'rec-1' });
    expect(summary).toMatchObject({ name: 'agency demo', agency: 'demo', chatId: 'rec-1' });
    expect(summary!.usage!.totalTokens).toBe(result.usage.totalTokens);
    const stored = (await traces.getTrace(summary!.traceId))!;
    const byId = new Map(stored.spans.map((span) => [span.spanId, span]));
    const generations = stored.spans.filter((span) => span.kind === 'generation');
    expect(generations).toHaveLength(7);
    for (const generation of generations)
      expect(byId.get(generation.parentId!)!.kind).toBe('agent');
    const editor = stored.spans.find((span) => span.kind === 'agent' && span.name === 'Editor')!;
    expect(editor.attributes).toMatchObject({ agent: 'Editor', caller: 'Writer', depth: 2 });
    expect(byId.get(editor.parentId!)).toMatchObject({
      kind: 'send_message',
      attributes: { recipient: 'Editor', agent: 'Writer' },
    });
    const coordinator = stored.spans.find((span) => span.parentId === null)!;
    expect(coordinator.attributes).toMatchObject({ agent: 'Coordinator', caller: null, depth: 0 });
    expect(coordinator.attributes.inputTokens).toBe(30);
  });

  it('tells listeners of span starts and ends as they happen, and survives a throwing one', async () => {
    setupTracing({ env: {} });
    const seen: string[] = [];
    const recorder = getTraceRecorder();
    const off = recorder.subscribe({
      onSpanStart: (span) => seen.push(`start ${span.kind} ${span.name}`),
      onSpanEnd: (span) => seen.push(`end ${span.kind} ${span.name}`),
    });
    const offBad = recorder.subscribe({
      onSpanEnd: () => {
        throw new Error('listener bug');
      },
    });
    await createDemoAgency({ threads: threads() }).getResponse('Brief on wind.');
    off();
    offBad();
    expect(seen[0]).toBe('start agent Coordinator');
    expect(seen.at(-1)).toBe('end agent Coordinator');
    expect(seen.indexOf('end agent Editor')).toBeLessThan(seen.indexOf('end agent Writer'));
  });

  it('keeps no message text with traceContent: false and scrubs secrets always', async () => {
    const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz123456';
    setupTracing({ env: { OPENAI_API_KEY: secret }, openai: false });
    const worker = new Agent({
      name: 'Worker',
      instructions: 'x',
      model: new ScriptedModel(() => 'done'),
    });
    const boss = new Agent({
      name: 'Boss',
      instructions: 'x',
      model: new ScriptedModel((request) =>
        toolOutputsSinceUser(request).length === 0
          ? { tool: 'send_message', args: { recipient: 'Worker', message: lastUserText(request) } }
          : 'ok',
      ),
    });
    const make = (traceContent: boolean) =>
      new Agency({
        name: `content-${traceContent}`,
        entryPoints: [boss],
        communicationFlows: [[boss, worker]],
        threads: threads(),
        traceContent,
      });
    const texts = async (agency: Agency, chatId: string): Promise<SpanRecord[]> => {
      await agency.getResponse(`use key ${secret} please`, { chatId });
      const traces = await traceStoreFor(agency.threads.store);
      const [summary] = await traces.listTraces({ chatId });
      return (await traces.getTrace(summary!.traceId))!.spans;
    };
    const withContent = await texts(make(true), 'c-on');
    const send = withContent.find((span) => span.kind === 'send_message')!;
    expect(String(send.attributes.input)).toContain('use key');
    expect(JSON.stringify(withContent)).not.toContain(secret);
    const without = await texts(make(false), 'c-off');
    expect(JSON.stringify(without)).not.toContain('use key');
    // The SDK leaves tool input out of its spans then, so only the tool name is kept.
    expect(without.find((span) => span.kind === 'send_message')!.attributes.tool).toBe(
      'send_message',
    );
  });

  it('saves nothing for an agency with tracing: false', async () => {
    setupTracing({ env: {} });
    const solo = new Agent({
      name: 'Solo',
      instructions: 'x',
      model: new ScriptedModel(() => 'hi'),
    });
    const quiet = new Agency({
      name: 'quiet',
      entryPoints: [solo],
      threads: threads(),
      tracing: false,
      runner: new Runner(),
    });
    await quiet.getResponse('hi', { chatId: 'quiet-1' });
    const traces = await traceStoreFor(quiet.threads.store);
    expect(await traces.listTraces({ chatId: 'quiet-1' })).toEqual([]);
  });

  it('opens no trace at all for an agency with tracing: false on its own untraced Runner', async () => {
    setupTracing({ env: {} });
    const seen: string[] = [];
    const off = getTraceRecorder().subscribe({
      onSpanStart: (span) => seen.push(span.kind),
      onTraceEnd: (trace) => void seen.push(`trace ${trace.trace.name}`),
    });
    const solo = new Agent({
      name: 'Solo',
      instructions: 'x',
      model: new ScriptedModel(() => 'hi'),
    });
    const quiet = new Agency({
      name: 'silent',
      entryPoints: [solo],
      threads: threads(),
      tracing: false,
    });
    await quiet.getResponse('hi', { chatId: 'silent-1' });
    // The same agency traced, as a check that the listener hears traces of this kind.
    const loud = new Agency({ name: 'loud', entryPoints: [solo], threads: threads() });
    await loud.getResponse('hi', { chatId: 'loud-1' });
    off();
    expect(seen.filter((entry) => entry.startsWith('trace'))).toEqual(['trace agency loud']);
  });

  it('saves nothing with COLLOQUY_TRACING=off but still tells listeners', async () => {
    setupTracing({ env: { COLLOQUY_TRACING: 'off' } });
    const ends: string[] = [];
    const off = getTraceRecorder().subscribe({ onSpanEnd: (span) => ends.push(span.kind) });
    const agency = createDemoAgency({ threads: threads() });
    await agency.getResponse('Brief on sun.', { chatId: 'off-1' });
    off();
    expect(ends.filter((kind) => kind === 'generation')).toHaveLength(7);
    const traces = await traceStoreFor(agency.threads.store);
    expect(await traces.listTraces({ chatId: 'off-1' })).toEqual([]);
    setupTracing({ env: {} });
  });
});
