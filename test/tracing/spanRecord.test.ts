import { describe, expect, it } from 'vitest';
import { dispositionOf, durationBetween, spanAttributes } from '../../src/tracing/spanRecord.js';

describe('dispositionOf', () => {
  it('folds task/turn spans and attempts, and maps kinds', () => {
    expect(dispositionOf({ type: 'task', name: 'x' })).toEqual({ keep: false });
    expect(dispositionOf({ type: 'turn', turn: 1, agent_name: 'a' })).toEqual({ keep: false });
    expect(dispositionOf({ type: 'custom', name: 'model_attempt', data: {} })).toEqual({
      keep: false,
      fold: 'attempt',
    });
    expect(
      dispositionOf({ type: 'function', name: 'send_message', input: '', output: '' }),
    ).toMatchObject({ kind: 'send_message' });
    expect(dispositionOf({ type: 'response' })).toMatchObject({ kind: 'generation' });
    expect(
      dispositionOf({ type: 'custom', name: 'ensemble_step', data: { label: 'step 2' } }),
    ).toEqual({ keep: true, kind: 'ensemble_step', name: 'step 2' });
    expect(dispositionOf({ type: 'handoff', from_agent: 'a', to_agent: 'b' })).toMatchObject({
      kind: 'handoff',
      name: 'a → b',
    });
  });
});

describe('spanAttributes', () => {
  const secret = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
  it('keeps tool text with content, scrubs secrets, and cuts long text', () => {
    const attributes = spanAttributes(
      {
        type: 'function',
        name: 'send_message',
        input: JSON.stringify({ recipient: 'W', message: `key ${secret}` }),
        output: 'x'.repeat(3000),
      },
      { secrets: [secret] },
    );
    expect(attributes.recipient).toBe('W');
    expect(String(attributes.input)).not.toContain(secret);
    expect(String(attributes.output)).toHaveLength(2001);
  });

  it('drops text without content, keeps usage of generations', () => {
    expect(
      spanAttributes(
        { type: 'function', name: 'f', input: 'hello', output: 'bye' },
        { content: false },
      ),
    ).toEqual({ tool: 'f' });
    expect(
      spanAttributes({
        type: 'generation',
        model: 'm',
        usage: { input_tokens: 3, output_tokens: 4 },
      }),
    ).toEqual({ model: 'm', inputTokens: 3, outputTokens: 4 });
    expect(
      spanAttributes(
        { type: 'custom', name: 'c', data: { message: 'hi', n: 1 } },
        { content: false },
      ),
    ).toEqual({ n: 1 });
  });

  it('measures durations', () => {
    expect(durationBetween('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.250Z')).toBe(1250);
    expect(durationBetween(undefined, 'x')).toBeUndefined();
  });
});
