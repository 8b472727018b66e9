import type { AgentInputItem } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { ConversationThread } from '../../src/threads/conversationThread.js';
import type { ItemMeta } from '../../src/stores/item.js';

function meta(agent: string, callerAgent: string | null): ItemMeta {
  return {
    agent,
    callerAgent,
    runId: `run_${agent}`,
    parentRunId: callerAgent ? `run_${callerAgent}` : null,
    createdAt: '2024-01-01T00:00:00.000Z',
  };
}

const assistant = (text: string): AgentInputItem => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});
const call = (callId: string): AgentInputItem => ({
  type: 'function_call',
  callId,
  name: 'lookup',
  arguments: '{}',
  status: 'completed',
});
const result = (callId: string): AgentInputItem => ({
  type: 'function_call_result',
  callId,
  name: 'lookup',
  status: 'completed',
  output: { type: 'text', text: 'found' },
});

describe('ConversationThread', () => {
  it('adds items with unique ids and their origin', () => {
    const thread = new ConversationThread({ threadId: 't', chatId: 'c' });
    const first = thread.addItem({ role: 'user', content: 'hi' }, meta('A', null));
    const second = thread.addItem(assistant('hello'));
    expect(first).toMatchObject({
      item: { role: 'user', content: 'hi' },
      meta: { agent: 'A', callerAgent: null },
    });
    expect('meta' in second).toBe(false);
    expect(first.id).not.toBe(second.id);
    expect(thread.items).toEqual([first, second]);
    expect(thread).toMatchObject({ threadId: 't', chatId: 'c', metadata: {} });
  });

  it('adds several items with the same origin, in order', () => {
    const thread = new ConversationThread({ threadId: 't' });
    const added = thread.addItems([call('1'), result('1'), assistant('done')], meta('B', 'A'));
    expect(added.map((t) => t.item.type)).toEqual([
      'function_call',
      'function_call_result',
      'message',
    ]);
    expect(added.every((t) => t.meta?.agent === 'B' && t.meta.callerAgent === 'A')).toBe(true);
    expect(new Set(added.map((t) => t.id)).size).toBe(3);
    expect(thread.chatId).toBeNull();
  });

  it('tracks pending items after the saved version', () => {
    const loaded = [{ id: 'x1', item: { role: 'user', content: 'old' } as AgentInputItem }];
    const thread = new ConversationThread({ threadId: 't', items: loaded });
    expect(thread.savedVersion).toBe(1);
    expect(thread.pending).toEqual([]);
    const fresh = thread.addItem({ role: 'user', content: 'new' });
    expect(thread.pending).toEqual([fresh]);
    thread.savedVersion = 2;
    expect(thread.pending).toEqual([]);
    loaded.push({ id: 'x2', item: { role: 'user', content: 'outside' } });
    expect(thread.items).toHaveLength(2);
  });

  it('returns a copy of the log from fullLog', () => {
    const thread = new ConversationThread({ threadId: 't' });
    thread.addItem({ role: 'user', content: 'hi' }, meta('A', null));
    const log = thread.fullLog();
    expect(log).toEqual(thread.items);
    log[0]!.id = 'changed';
    log.push({ id: 'extra', item: { role: 'user', content: 'x' } });
    expect(thread.items).toHaveLength(1);
    expect(thread.items[0]!.id).not.toBe('changed');
  });

  it('gives the raw items to the model without a perspective', () => {
    const thread = new ConversationThread({ threadId: 't' });
    thread.addItem({ role: 'user', content: 'q' }, meta('B', 'A'));
    thread.addItems([call('1'), result('1'), assistant('a')], meta('B', 'A'));
    expect(thread.historyForModel()).toEqual([
      { role: 'user', content: 'q' },
      call('1'),
      result('1'),
      assistant('a'),
    ]);
  });

  it("turns the other agent's messages around and drops its tool calls with `as`", () => {
    const thread = new ConversationThread({ threadId: 'c__A__B' });
    // A asked B (the message B received is tagged with B), B used a tool and answered.
    thread.addItem({ role: 'user', content: 'What is 2+2?' }, meta('B', 'A'));
    thread.addItems([call('c1'), result('c1'), assistant('4')], meta('B', 'A'));
    // Later B asked A something (tagged with A, the receiver) and A answered with a tool call.
    thread.addItem(
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Need ' },
          { type: 'input_text', text: 'more?' },
        ],
      },
      meta('A', 'B'),
    );
    thread.addItems([call('c2'), result('c2'), assistant('No.')], meta('A', 'B'));

    expect(thread.historyForModel({ as: 'B' })).toEqual([
      { role: 'user', content: 'What is 2+2?' },
      call('c1'),
      result('c1'),
      assistant('4'),
      {
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Need more?' }],
      },
      { role: 'user', content: 'No.' },
    ]);
    expect(thread.historyForModel({ as: 'A' })).toEqual([
      {
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'What is 2+2?' }],
      },
      { role: 'user', content: '4' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Need ' },
          { type: 'input_text', text: 'more?' },
        ],
      },
      call('c2'),
      result('c2'),
      assistant('No.'),
    ]);
  });

  it('keeps items without an origin in every perspective', () => {
    const thread = new ConversationThread({ threadId: 't' });
    thread.addItem({ role: 'user', content: 'imported' });
    thread.addItem(assistant('theirs'), meta('B', 'A'));
    expect(thread.historyForModel({ as: 'A' })).toEqual([
      { role: 'user', content: 'imported' },
      { role: 'user', content: 'theirs' },
    ]);
  });
});
