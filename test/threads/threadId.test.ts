import { describe, expect, it } from 'vitest';
import {
  escapePart,
  parseThreadId,
  threadIdFor,
  unescapePart,
} from '../../src/threads/threadId.js';

/** Names built from the pieces most likely to break an escaping scheme. */
function trickyNames(): string[] {
  const tokens = [
    '',
    '_',
    '__',
    '%',
    '%5F',
    '%25',
    '%55SER',
    'USER',
    'U',
    'SER',
    'a',
    'b_c',
    '5F',
    'é',
  ];
  const names = new Set<string>();
  for (const x of tokens) for (const y of tokens) names.add(x + y);
  for (const x of ['_', '__', 'a'])
    for (const y of tokens) for (const z of ['_', 'USER', '%']) names.add(x + y + z);
  return [...names];
}

describe('threadIdFor', () => {
  it('names user threads {chat}__{agent}__USER and pair threads {chat}__{a}__{b} sorted', () => {
    expect(threadIdFor('chat1', 'Coordinator')).toBe('chat1__Coordinator__USER');
    expect(threadIdFor('chat1', 'Coordinator', null)).toBe('chat1__Coordinator__USER');
    expect(threadIdFor('chat1', 'Writer', 'Coordinator')).toBe('chat1__Coordinator__Writer');
    expect(threadIdFor('chat1', 'Coordinator', 'Writer')).toBe('chat1__Coordinator__Writer');
  });

  it('leaves ordinary names (single underscores, dashes, dots) unchanged', () => {
    expect(threadIdFor('chat_1', 'fact_checker', 'my-agent.v2')).toBe(
      'chat_1__fact_checker__my-agent.v2',
    );
  });

  it('escapes names containing __, leading or trailing _, % and the literal USER', () => {
    expect(escapePart('a__b')).toBe('a%5F%5Fb');
    expect(escapePart('_a')).toBe('%5Fa');
    expect(escapePart('a_')).toBe('a%5F');
    expect(escapePart('a_b__c')).toBe('a%5Fb%5F%5Fc');
    expect(escapePart('100%')).toBe('100%25');
    expect(escapePart('USER')).toBe('%55SER');
    expect(escapePart('user')).toBe('user');
    expect(threadIdFor('x__y', 'a__b')).toBe('x%5F%5Fy__a%5F%5Fb__USER');
    expect(threadIdFor('c', 'A', 'USER')).toBe('c__A__%55SER');
    expect(threadIdFor('c', 'A', 'USER')).not.toBe(threadIdFor('c', 'A'));
  });

  it('never lets an escaped part contain __, start or end with _, or be USER', () => {
    for (const name of trickyNames()) {
      const escaped = escapePart(name);
      expect(escaped.includes('__'), name).toBe(false);
      expect(escaped.startsWith('_') || escaped.endsWith('_'), name).toBe(false);
      expect(escaped, name).not.toBe('USER');
      expect(unescapePart(escaped), name).toBe(name);
    }
  });

  it('is injective over many tricky (chat, participants) combinations and parses back', () => {
    const names = trickyNames();
    expect(names.length).toBeGreaterThan(200);
    const chats = names.filter((_, i) => i % 29 === 0);
    const seen = new Map<string, string>();
    let checked = 0;
    for (const chat of chats) {
      for (const agent of names) {
        for (const other of [null, ...names.filter((_, i) => i % 4 === 0)]) {
          const id = threadIdFor(chat, agent, other);
          const key = JSON.stringify(
            other === null ? [chat, agent, null] : [chat, ...[agent, other].sort()],
          );
          const previous = seen.get(id);
          if (previous !== undefined && previous !== key)
            throw new Error(`collision: ${previous} and ${key} → ${id}`);
          seen.set(id, key);
          const parsed = parseThreadId(id);
          const expected = other === null ? [agent, null] : [agent, other].sort();
          if (
            !parsed ||
            parsed.chatId !== chat ||
            parsed.participants[0] !== expected[0] ||
            parsed.participants[1] !== expected[1]
          ) {
            throw new Error(`round trip failed for ${key}: ${JSON.stringify(parsed)}`);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });

  it('gives the same id whichever agent of the pair is named first', () => {
    for (const [a, b] of [
      ['x__', '_y'],
      ['USER', 'a'],
      ['%', '_'],
      ['', 'z'],
    ] as const) {
      expect(threadIdFor('c', a, b)).toBe(threadIdFor('c', b, a));
    }
  });
});

describe('parseThreadId', () => {
  it('parses user and pair threads', () => {
    expect(parseThreadId('chat1__Coordinator__USER')).toEqual({
      chatId: 'chat1',
      participants: ['Coordinator', null],
    });
    expect(parseThreadId('chat1__A__B')).toEqual({ chatId: 'chat1', participants: ['A', 'B'] });
    expect(parseThreadId(threadIdFor('c', 'A', 'USER'))).toEqual({
      chatId: 'c',
      participants: ['A', 'USER'],
    });
  });

  it('returns null for ids that are not thread ids', () => {
    expect(parseThreadId('plain')).toBeNull();
    expect(parseThreadId('a__b')).toBeNull();
    expect(parseThreadId('a__b__c__d')).toBeNull();
  });
});
