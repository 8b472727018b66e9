import type { AgentInputItem, ModelRequest } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { lastItem, lastUserText, toolOutputsSinceUser } from '../../src/models/requestText.js';

const request = (input: string | AgentInputItem[]): ModelRequest =>
  ({ input }) as unknown as ModelRequest;
const user = (content: unknown) => ({ role: 'user', content }) as AgentInputItem;
const result = (output: unknown) =>
  ({
    type: 'function_call_result',
    callId: 'c',
    name: 't',
    status: 'completed',
    output,
  }) as AgentInputItem;

describe('request text helpers', () => {
  it('read a plain string input as one user message', () => {
    expect(lastUserText(request('hello'))).toBe('hello');
    expect(lastItem(request('hello'))).toEqual({ role: 'user', content: 'hello' });
    expect(toolOutputsSinceUser(request('hello'))).toEqual([]);
  });

  it('find the newest user message, joining the text parts of structured content', () => {
    const input = [
      user('old'),
      {
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'hi' }],
      } as AgentInputItem,
      user([
        { type: 'input_text', text: 'new ' },
        { type: 'input_image', image: 'x' },
        { type: 'input_text', text: 'one' },
      ]),
    ];
    expect(lastUserText(request(input))).toBe('new one');
    expect(lastUserText(request([]))).toBe('');
    expect(lastItem(request([]))).toBeUndefined();
  });

  it('collect the tool outputs of the current turn only, in order, whatever their shape', () => {
    const input = [
      user('first'),
      result('stale'),
      user('second'),
      result('a'),
      result({ type: 'text', text: 'b' }),
      result({ n: 1 }),
    ];
    expect(toolOutputsSinceUser(request(input))).toEqual(['a', 'b', '{"n":1}']);
    expect(lastItem(request(input))).toMatchObject({ type: 'function_call_result' });
  });
});
