import type { ModelRequest } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { normalizeRequest, requestKey } from '../../src/models/requestKey.js';

type Parts = Pick<
  ModelRequest,
  'systemInstructions' | 'input' | 'tools' | 'handoffs' | 'outputType'
>;

const request = (fields: Partial<Record<keyof Parts, unknown>> = {}): Parts =>
  ({
    systemInstructions: 'sys',
    input: 'hi',
    tools: [],
    handoffs: [],
    outputType: 'text',
    ...fields,
  }) as Parts;

const key = (fields: Partial<Record<keyof Parts, unknown>> = {}) =>
  requestKey(normalizeRequest(request(fields)));

describe('normalizeRequest', () => {
  it('turns a string input into one user message and keeps the system text', () => {
    expect(normalizeRequest(request())).toEqual({
      system: 'sys',
      input: [{ role: 'user', text: 'hi' }],
      tools: [],
      handoffs: [],
      output: 'text',
    });
    expect(normalizeRequest(request({ systemInstructions: undefined })).system).toBe('');
  });

  it('numbers call ids in order of appearance, the same id getting the same number', () => {
    const input = [
      { type: 'function_call', callId: 'zzz', name: 'a', arguments: '{}' },
      { type: 'function_call', callId: 'aaa', name: 'b', arguments: '{}' },
      { type: 'function_call_result', callId: 'aaa', name: 'b', output: 'B' },
      { type: 'function_call_result', callId: 'zzz', name: 'a', output: 'A' },
    ];
    const normalized = normalizeRequest(request({ input }));
    expect(normalized.input.map((item) => (item as { call?: string }).call)).toEqual([
      'call_1',
      'call_2',
      'call_2',
      'call_1',
    ]);
  });

  it('parses call arguments, so that key order and spacing do not matter, and keeps bad JSON as text', () => {
    const call = (args: string) => [
      { type: 'function_call', callId: 'c', name: 'f', arguments: args },
    ];
    expect(key({ input: call('{"a":1,"b":2}') })).toBe(key({ input: call('{ "b": 2, "a": 1 }') }));
    expect(key({ input: call('{"a":1}') })).not.toBe(key({ input: call('{"a":2}') }));
    expect(normalizeRequest(request({ input: call('{oops') })).input[0]).toMatchObject({
      arguments: '{oops',
    });
  });

  it('reads text from content parts, refusals and part types', () => {
    const input = [
      {
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Hello ' },
          { type: 'refusal', refusal: 'no' },
          { type: 'input_image' },
        ],
      },
      {
        type: 'function_call_result',
        callId: 'c',
        name: 'f',
        output: { type: 'text', text: 'out' },
      },
    ];
    const normalized = normalizeRequest(request({ input }));
    expect(normalized.input[0]).toEqual({ role: 'assistant', text: 'Hello no[input_image]' });
    expect(normalized.input[1]).toMatchObject({ output: 'out', name: 'f' });
  });

  it('keeps only the type of items it does not read', () => {
    const input = [
      { type: 'reasoning', id: 'rs_1', content: [{ text: 'secret thoughts' }] },
      { foo: 1 },
    ];
    expect(normalizeRequest(request({ input })).input).toEqual([
      { type: 'reasoning' },
      { type: 'unknown' },
    ]);
  });

  it('sorts tool and handoff names, and tells text from structured output', () => {
    const normalized = normalizeRequest(
      request({
        tools: [{ name: 'zeta' }, { type: 'web_search' }, { name: 'alpha' }],
        handoffs: [{ toolName: 'transfer_to_b' }, { toolName: 'transfer_to_a' }],
        outputType: { type: 'json_schema', name: 'x', strict: true, schema: {} },
      }),
    );
    expect(normalized.tools).toEqual(['alpha', 'web_search', 'zeta']);
    expect(normalized.handoffs).toEqual(['transfer_to_a', 'transfer_to_b']);
    expect(normalized.output).toBe('json_schema');
    expect(normalizeRequest(request({ outputType: undefined })).output).toBe('text');
  });
});

describe('requestKey', () => {
  it('is 16 hex characters and stable for equal requests', () => {
    expect(key()).toMatch(/^[0-9a-f]{16}$/);
    expect(key()).toBe(key());
  });

  it('ignores item ids and statuses but not tools, system text or output kind', () => {
    const message = (id: string, status: string) => [{ role: 'user', content: 'hi', id, status }];
    expect(key({ input: message('m1', 'completed') })).toBe(
      key({ input: message('m2', 'in_progress') }),
    );
    expect(key({ tools: [{ name: 'a' }] })).not.toBe(key());
    expect(key({ systemInstructions: 'other' })).not.toBe(key());
    expect(key({ outputType: { type: 'json_schema' } })).not.toBe(key());
  });

  it('does not depend on the order tools are given in', () => {
    expect(key({ tools: [{ name: 'a' }, { name: 'b' }] })).toBe(
      key({ tools: [{ name: 'b' }, { name: 'a' }] }),
    );
  });
});

describe('requestKey stability', () => {
  it('keeps the key recorded cassettes were written with (keys sorted, text escaped as JSON)', () => {
    // Computed with fast-json-stable-stringify, the library used before: a different key would
    // make every recorded cassette miss.
    const normalized = {
      system: 'Sé brief 🙂',
      input: [
        { role: 'user', text: 'line\n"quoted" \u2028 \ud800' },
        {
          type: 'function_call',
          call: 'call_1',
          name: 'lookup',
          arguments: { z: [1, 2.5, -0, 1e21], a: { y: null, b: true }, '01': 'x', '1': 'y' },
        },
        { type: 'function_call_result', call: 'call_1', name: 'lookup', output: 'ok' },
      ],
      tools: ['lookup'],
      handoffs: [],
      output: 'text',
    };
    expect(requestKey(normalized)).toBe('42d77d6407d8c26b');
  });

  it('refuses a cyclic value instead of keying it', () => {
    const args: Record<string, unknown> = {};
    args.self = args;
    const input = [{ type: 'function_call', call: 'call_1', name: 'f', arguments: args }];
    expect(() =>
      requestKey({ system: '', input, tools: [], handoffs: [], output: 'text' }),
    ).toThrow(TypeError);
  });
});
