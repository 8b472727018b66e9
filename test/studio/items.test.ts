import { describe, expect, it } from 'vitest';
import {
  compareThreads,
  isUserThread,
  itemKind,
  participants,
} from '../../studio/src/lib/items.js';

describe('itemKind', () => {
  it('tells messages, tool calls, handoffs, tool results and errors apart', () => {
    expect(itemKind({ type: 'message', role: 'user', content: 'hi' })).toBe('message');
    expect(itemKind({ role: 'assistant', content: 'hi' })).toBe('message');
    expect(itemKind({ type: 'function_call', name: 'send_message', arguments: '{}' })).toBe(
      'tool_call',
    );
    expect(itemKind({ type: 'function_call', name: 'transfer_to_Billing' })).toBe('handoff');
    expect(itemKind({ type: 'function_call_result', output: { type: 'text', text: 'ok' } })).toBe(
      'tool_result',
    );
    expect(itemKind({ type: 'function_call_result', output: 'Error: agent failed' })).toBe('error');
    expect(
      itemKind({ type: 'function_call_result', output: 'An error occurred while running' }),
    ).toBe('error');
    expect(itemKind({ type: 'reasoning' })).toBe('reasoning');
    expect(itemKind({})).toBe('item');
  });
});

describe('thread names and order', () => {
  it('names the two sides of a thread, the user as User', () => {
    expect(participants('c1__Coordinator__USER', 'c1')).toBe('Coordinator ↔ User');
    expect(participants('c1__Writer__Editor', 'c1')).toBe('Writer ↔ Editor');
    expect(participants('other__A__B', 'c1')).toBe('other ↔ A ↔ B');
  });

  it("puts the user's threads first, then the rest by id", () => {
    const ids = ['c__Writer__Editor', 'c__B__USER', 'c__Coordinator__Writer', 'c__A__USER'];
    expect([...ids].sort(compareThreads)).toEqual([
      'c__A__USER',
      'c__B__USER',
      'c__Coordinator__Writer',
      'c__Writer__Editor',
    ]);
    expect(isUserThread('c__A__USER')).toBe(true);
    expect(isUserThread('c__USER__A')).toBe(false);
  });
});
