import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/server/inflight.js';
import { deferred } from './helpers.js';

describe('InFlight', () => {
  it('counts tracked work until it settles, fulfilled or rejected', async () => {
    const inflight = new InFlight();
    const ok = deferred<number>();
    const bad = deferred<void>();
    const tracked = inflight.track(ok.promise);
    const failing = inflight.track(bad.promise.then(() => Promise.reject(new Error('x'))));
    failing.catch(() => undefined);
    expect(inflight.size).toBe(2);
    ok.resolve(7);
    expect(await tracked).toBe(7);
    expect(inflight.size).toBe(1);
    bad.resolve();
    await expect(failing).rejects.toThrow('x');
    await Promise.resolve();
    expect(inflight.size).toBe(0);
  });

  it('resolves idle() at once when nothing runs, when the work ends, or false on timeout', async () => {
    const inflight = new InFlight();
    expect(await inflight.idle(10)).toBe(true);
    const work = deferred();
    inflight.track(work.promise);
    expect(await inflight.idle(20)).toBe(false);
    const waiting = inflight.idle(5_000);
    const second = inflight.idle(5_000);
    work.resolve();
    expect(await waiting).toBe(true);
    expect(await second).toBe(true);
  });

  it('marks draining once drain() is called', () => {
    const inflight = new InFlight();
    expect(inflight.draining).toBe(false);
    inflight.drain();
    inflight.drain();
    expect(inflight.draining).toBe(true);
  });
});
