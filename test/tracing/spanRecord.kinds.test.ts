// spanRecord facets: every SDK span type's disposition and attributes, errors and durations.
import type { Span as SdkSpan, SpanData } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import {
  dispositionOf,
  durationBetween,
  spanAttributes,
  spanError,
} from '../../src/tracing/spanRecord.js';

const SECRET = 'sk-test-0123456789abcdef';

describe('dispositionOf (every kind)', () => {
  it('keeps agents, generations, functions, guardrails and custom spans under their names', () => {
    expect(dispositionOf({ type: 'agent', name: 'Writer' })).toEqual({
      keep: true,
      kind: 'agent',
      name: 'Writer',
    });
    expect(dispositionOf({ type: 'generation', model: 'gpt-4.1' } as SpanData)).toEqual({
      keep: true,
      kind: 'generation',
      name: 'gpt-4.1',
    });
    expect(dispositionOf({ type: 'generation' } as SpanData)).toMatchObject({ name: 'model' });
    expect(dispositionOf({ type: 'function', name: 'search', input: '', output: '' })).toEqual({
      keep: true,
      kind: 'function',
      name: 'search',
    });
    expect(dispositionOf({ type: 'guardrail', name: 'no-pii', triggered: true })).toEqual({
      keep: true,
      kind: 'guardrail',
      name: 'no-pii',
    });
    expect(dispositionOf({ type: 'custom', name: 'cache', data: {} })).toEqual({
      keep: true,
      kind: 'custom',
      name: 'cache',
    });
    expect(dispositionOf({ type: 'handoff' } as SpanData)).toMatchObject({ name: '? → ?' });
  });

  it('names ensemble spans by their label, falling back to the kind', () => {
    expect(
      dispositionOf({ type: 'custom', name: 'ensemble_agent', data: { label: 'critic' } }),
    ).toEqual({ keep: true, kind: 'ensemble_agent', name: 'critic' });
    expect(dispositionOf({ type: 'custom', name: 'ensemble_run', data: {} })).toEqual({
      keep: true,
      kind: 'ensemble_run',
      name: 'ensemble_run',
    });
  });

  it('keeps span types it does not know as custom spans named by type', () => {
    expect(dispositionOf({ type: 'transcription' } as unknown as SpanData)).toEqual({
      keep: true,
      kind: 'custom',
      name: 'transcription',
    });
  });
});

describe('spanAttributes (every kind)', () => {
  it('lists an agent span’s tools, a handoff’s ends and a guardrail’s outcome', () => {
    expect(spanAttributes({ type: 'agent', name: 'A', tools: ['search', 'send_message'] })).toEqual(
      { agent: 'A', tools: ['search', 'send_message'] },
    );
    expect(spanAttributes({ type: 'agent', name: 'A', tools: [] })).toEqual({ agent: 'A' });
    expect(spanAttributes({ type: 'handoff', from_agent: 'A', to_agent: 'B' })).toEqual({
      from: 'A',
      to: 'B',
    });
    expect(spanAttributes({ type: 'guardrail', name: 'g', triggered: false })).toEqual({
      triggered: false,
    });
  });

  it('reads response usage from the response object, in either naming', () => {
    expect(
      spanAttributes({
        type: 'response',
        _response: { usage: { inputTokens: 9, outputTokens: 4 } },
      } as unknown as SpanData),
    ).toEqual({ inputTokens: 9, outputTokens: 4 });
    expect(spanAttributes({ type: 'generation', model: 'm' } as SpanData)).toEqual({ model: 'm' });
  });

  it('leaves out a send_message recipient it cannot read, and text that is absent', () => {
    expect(
      spanAttributes({ type: 'function', name: 'send_message', input: 'not json', output: '' }),
    ).toEqual({ tool: 'send_message', input: 'not json' });
    expect(
      spanAttributes({
        type: 'function',
        name: 'send_message',
        input: '{"recipient":7}',
        output: '',
      }),
    ).toEqual({ tool: 'send_message', input: '{"recipient":7}' });
  });

  it('scrubs secrets from custom data at any depth and keeps numbers as they are', () => {
    const attributes = spanAttributes(
      {
        type: 'custom',
        name: 'c',
        data: { header: `Bearer ${SECRET}`, nested: { key: SECRET, n: 3 }, count: 2 },
      },
      { secrets: [SECRET] },
    );
    expect(JSON.stringify(attributes)).not.toContain(SECRET);
    expect(attributes.count).toBe(2);
    expect((attributes.nested as { n: number }).n).toBe(3);
  });

  it('cuts strings at maxLength and serialises non-string tool input', () => {
    const attributes = spanAttributes(
      {
        type: 'function',
        name: 'f',
        input: { q: 'abc' } as unknown as string,
        output: 'y'.repeat(20),
      },
      { maxLength: 10 },
    );
    expect(attributes.input).toBe('{"q":"abc"}'.slice(0, 10) + '…');
    expect(attributes.output).toBe(`${'y'.repeat(10)}…`);
  });

  it('keeps nothing of span types without attributes', () => {
    expect(spanAttributes({ type: 'task', name: 't' } as SpanData)).toEqual({});
  });
});

describe('spanError and durationBetween', () => {
  it('returns a span’s error scrubbed of secrets, or undefined', () => {
    const failed = { error: { message: `401 for key ${SECRET}` } } as unknown as SdkSpan<SpanData>;
    expect(spanError(failed, { secrets: [SECRET] })!.message).not.toContain(SECRET);
    expect(spanError({ error: null } as unknown as SdkSpan<SpanData>)).toBeUndefined();
  });

  it('never returns a negative duration', () => {
    expect(durationBetween('2026-01-01T00:00:02.000Z', '2026-01-01T00:00:01.000Z')).toBe(0);
    expect(durationBetween('2026-01-01T00:00:00.000Z', null)).toBeUndefined();
  });
});
