// ChatJournal.enter against the test Redis: outcome, cancellation and the chat's entry read, and
// the entry recorded when the chat has none, in one call.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatJournal, liveSnapshot } from '../../src/queue/chatJournal.js';
import { ARCHIVE_MARK } from '../../src/stores/common.js';
import { redisSkip, redisUrl, uniqueName } from '../setup/serviceUrls.js';

const skip = redisSkip();

describe.skipIf(Boolean(skip))('ChatJournal.enter', () => {
  let redis: Redis;
  const prefix = uniqueName('journal');
  const keys = (name: string) => ({
    journal: `${prefix}:${name}:journal`,
    done: `${prefix}:${name}:done`,
    cancelled: `${prefix}:${name}:cancelled`,
  });
  beforeAll(() => void (redis = new Redis(redisUrl()!)));
  afterAll(async () => {
    const found = await redis.keys(`${prefix}:*`);
    if (found.length > 0) await redis.del(...found);
    await redis.quit();
  });

  it('records the entry (with an expiry) when the chat has none', async () => {
    const k = keys('free');
    const journal = new ChatJournal(redis);
    const entered = await journal.enter(k, { job: 'j1', snapshot: { 't::a': 2 } });
    expect(entered).toEqual({ done: null, cancelled: null, current: null });
    expect(await journal.read(k.journal)).toEqual({ job: 'j1', snapshot: { 't::a': 2 } });
    expect(await redis.ttl(k.journal)).toBeGreaterThan(86_400);
  });

  it("returns the chat's entry and keeps it (another job's, or this job's before its worker died)", async () => {
    const k = keys('taken');
    const journal = new ChatJournal(redis);
    await journal.begin(k.journal, { job: 'first', snapshot: { 't::a': 1 } });
    const entered = await journal.enter(k, { job: 'second', snapshot: { 't::a': 3 } });
    expect(entered.current).toEqual({ job: 'first', snapshot: { 't::a': 1 } });
    expect(await journal.read(k.journal)).toEqual({ job: 'first', snapshot: { 't::a': 1 } });
  });

  it('returns the outcome or the cancellation of a call and records nothing', async () => {
    const journal = new ChatJournal(redis);
    const done = keys('done');
    await redis.set(done.done, '{"ok":true,"result":1}');
    expect(await journal.enter(done, { job: 'j', snapshot: {} })).toEqual({
      done: '{"ok":true,"result":1}',
      cancelled: null,
      current: null,
    });
    expect(await redis.exists(done.journal)).toBe(0);
    const cancelled = keys('cancelled');
    await redis.set(cancelled.cancelled, 'The client cancelled the call.');
    expect(await journal.enter(cancelled, { job: 'j', snapshot: {} })).toMatchObject({
      done: null,
      cancelled: 'The client cancelled the call.',
    });
    expect(await redis.exists(cancelled.journal)).toBe(0);
  });
});

describe('liveSnapshot', () => {
  it('leaves archived threads out', () => {
    expect(liveSnapshot({ 'c::a': 2, [`c::a${ARCHIVE_MARK}1`]: 5, 'c::b': 0 })).toEqual({
      'c::a': 2,
      'c::b': 0,
    });
  });
});
