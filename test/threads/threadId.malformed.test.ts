import { describe, expect, it } from 'vitest';
import { parseThreadId, threadIdFor, unescapePart } from '../../src/threads/threadId.js';

describe('parseThreadId on ids it did not make', () => {
  it('returns null for a stray % instead of throwing URIError', () => {
    expect(() => parseThreadId('a__b%__c')).not.toThrow();
    expect(parseThreadId('a__b%__c')).toBeNull();
    expect(parseThreadId('%E0%A4%A__b__USER')).toBeNull();
    expect(parseThreadId('a__b__%ED%A0%80')).toBeNull(); // UTF-8 of a lone surrogate
    expect(unescapePart('%zz')).toBeNull();
  });

  it('still parses what threadIdFor makes', () => {
    expect(parseThreadId(threadIdFor('c%1', 'A~b', null))).toEqual({
      chatId: 'c%1',
      participants: ['A~b', null],
    });
    expect(parseThreadId(threadIdFor('c', 'b', 'a'))).toEqual({
      chatId: 'c',
      participants: ['a', 'b'],
    });
  });
});
