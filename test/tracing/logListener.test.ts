import { pino } from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogListener } from '../../src/tracing/logListener.js';
import type { SpanRecord } from '../../src/stores/traceStore.js';
import type { LiveTrace } from '../../src/tracing/recorder.js';

describe('createLogListener', () => {
  it('logs agent runs at info (errors at error) and model and tool calls at debug', () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, stream);
    const listener = createLogListener(() => logger);
    const trace: LiveTrace = {
      traceId: 't',
      name: 'n',
      metadata: { chatId: 'c', runId: 'r' },
      spans: new Map(),
    };
    const base = { traceId: 't', parentId: null, startedAt: '', durationMs: 5 };
    const spans: SpanRecord[] = [
      {
        ...base,
        spanId: '1',
        kind: 'generation',
        name: 'gpt',
        attributes: {
          agent: 'A',
          model: 'gpt',
          inputTokens: 1,
          outputTokens: 2,
          attempt: 2,
          fallback: true,
        },
      },
      {
        ...base,
        spanId: '2',
        kind: 'send_message',
        name: 'send_message',
        attributes: { agent: 'A', tool: 'send_message', recipient: 'B' },
      },
      {
        ...base,
        spanId: '3',
        kind: 'agent',
        name: 'B',
        attributes: { agent: 'B', caller: 'A', depth: 1 },
      },
      {
        ...base,
        spanId: '4',
        kind: 'agent',
        name: 'A',
        attributes: { agent: 'A', caller: null, depth: 0 },
        error: { message: 'bad' },
      },
      { ...base, spanId: '5', kind: 'ensemble_step', name: 'step 1', attributes: {} },
    ];
    for (const span of spans) listener.onSpanEnd!(span, trace);
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [20, 'model call gpt by A'],
      [20, 'tool call send_message by A'],
      [30, 'agent run B finished'],
      [50, 'agent run A failed'],
      [30, 'ensemble turn step 1 finished'],
    ]);
    expect(lines[0]).toMatchObject({
      chatId: 'c',
      runId: 'r',
      attempt: 2,
      fallback: true,
      inputTokens: 1,
    });
    expect(lines[2]).toMatchObject({ caller: 'A', depth: 1, outcome: 'ok', durationMs: 5 });
  });

  it('builds no record for a level the logger has off, and still logs failed agent runs', () => {
    const built: string[] = [];
    const logger = {
      isLevelEnabled: (level: string) => level === 'error',
      info: () => built.push('info'),
      debug: () => built.push('debug'),
      error: (_record: unknown, message: string) => built.push(`error: ${message}`),
    } as unknown as import('pino').Logger;
    const listener = createLogListener(() => logger);
    const trace: LiveTrace = { traceId: 't', name: 'n', metadata: {}, spans: new Map() };
    const span = (kind: SpanRecord['kind'], error?: { message: string }): SpanRecord => ({
      spanId: kind,
      traceId: 't',
      parentId: null,
      kind,
      name: 'A',
      startedAt: '',
      attributes: { agent: 'A' },
      ...(error ? { error } : {}),
    });
    for (const kind of ['agent', 'generation', 'send_message', 'ensemble_step'] as const)
      listener.onSpanEnd!(span(kind), trace);
    listener.onSpanEnd!(span('agent', { message: 'boom' }), trace);
    expect(built).toEqual(['error: agent run A failed']);
  });
});
