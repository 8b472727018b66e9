// In-process schedules: ticks run the agency (one chat per tick), status counts ticks and runs,
// ticks that fell while nothing ran are counted as missed (never run late), and failed runs
// leave lastError.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inProcessExecutor } from '../../../src/server/executor.js';
import { LocalSchedules } from '../../../src/server/schedules/localSchedules.js';
import { ScheduleRecords } from '../../../src/server/schedules/records.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { echoAgency, testRegistry } from '../helpers.js';

const open: LocalSchedules[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const schedules of open.splice(0)) await schedules.close();
});

function setup(store = new MemoryStore()) {
  const registry = testRegistry({ agencies: [echoAgency('echo', store)], store, demo: false });
  const schedules = new LocalSchedules({ store, executor: inProcessExecutor(registry) });
  open.push(schedules);
  return { store, registry, schedules };
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('LocalSchedules', () => {
  it('runs the agency once per tick, each tick in a chat of its own', async () => {
    const { store, schedules } = setup();
    await schedules.start();
    await schedules.add({
      id: 'fast',
      every: '200ms',
      agency: 'echo',
      message: 'hi',
      source: 'api',
    });
    const chatsOf = async () =>
      new Set(
        (await store.listThreads())
          .map((t) => t.chatId)
          .filter((id): id is string => id?.startsWith('chat_sched_fast_') ?? false),
      );
    const chats = await until(chatsOf, (found) => found.size >= 3);
    await schedules.close();
    const view = (await schedules.get('fast'))!;
    expect(view.status.runs).toBe(view.status.ticks);
    expect(view.status.ticks).toBeGreaterThanOrEqual(chats.size);
    expect(view.status.lastError).toBeUndefined();
    expect(view.status.lastRunId).toMatch(/^chat_sched_fast_\d+$/);
    const first = [...chats][0]!;
    const items = await store.readItems((await store.listThreads({ chatId: first }))[0]!.threadId);
    expect(JSON.stringify(items)).toContain('hi');
  });

  it('counts the ticks that fell while nothing ran as missed and runs none of them', async () => {
    const T = 1_700_000_000_500;
    vi.useFakeTimers({
      now: T,
      toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const store = new MemoryStore();
    const records = new ScheduleRecords(store);
    const schedule = {
      id: 'nightly',
      every: '1s',
      agency: 'echo',
      message: 'ping',
      source: 'api' as const,
      createdAt: new Date(T - 60_000).toISOString(),
    };
    await records.put(schedule);
    // The last process planned a tick 10.5 s ago, then stopped: ticks at T-10.5s … T-0.5s fell.
    await records.setStatus('nightly', {
      ticks: 4,
      runs: 4,
      missed: 0,
      nextTickAt: new Date(T - 10_500).toISOString(),
    });
    const { schedules } = setup(store);
    await schedules.start();
    const status = (await schedules.get('nightly'))!.status;
    expect(status).toMatchObject({ ticks: 4, runs: 4, missed: 11 });
    expect(status.nextTickAt).toBe(new Date(T + 500).toISOString());
    // The next tick runs on time.
    await vi.advanceTimersByTimeAsync(500);
    expect((await schedules.get('nightly'))!.status).toMatchObject({
      ticks: 5,
      runs: 5,
      missed: 11,
    });
    // A tick whose timer fires late (the process was blocked) is skipped, not run late.
    vi.setSystemTime(Date.now() + 3_000);
    await vi.advanceTimersByTimeAsync(1_000);
    const late = (await schedules.get('nightly'))!.status;
    expect(late.ticks).toBe(5);
    expect(late.missed).toBeGreaterThan(11);
  });

  it('keeps status across a restart and records a failing run as lastError', async () => {
    const { store, schedules } = setup();
    await schedules.start();
    await schedules.add({ id: 'bad', every: '150ms', agency: 'nope', message: 'x', source: 'api' });
    const failed = await until(
      () => schedules.get('bad'),
      (v) => v?.status.lastError !== undefined,
    );
    expect(failed!.status.lastError).toMatch(/nope/);
    await schedules.close();
    const again = setup(store).schedules;
    await again.start();
    const kept = (await again.get('bad'))!.status;
    expect(kept.ticks).toBeGreaterThanOrEqual(1);
    expect(kept.lastError).toMatch(/nope/);
    expect(await again.remove('bad')).toBe(true);
    expect(await again.get('bad')).toBeNull();
    expect(await again.remove('bad')).toBe(false);
  });

  it('adds, updates and removes the schedules of colloquy.yaml on start', async () => {
    const { store, schedules } = setup();
    await schedules.start({ a: { every: '1h', agency: 'echo', message: 'one' } });
    expect((await schedules.list()).map((s) => [s.id, s.source, s.message])).toEqual([
      ['a', 'config', 'one'],
    ]);
    await schedules.close();
    const next = setup(store).schedules;
    await next.start({ b: { cron: '0 9 * * *', agency: 'echo', message: 'two' } });
    expect((await next.list()).map((s) => s.id)).toEqual(['b']);
    await expect(
      next.add({ id: 'b', every: '1h', agency: 'echo', message: 'x', source: 'api' }),
    ).rejects.toMatchObject({ code: 'SCHEDULE_EXISTS' });
  });

  it('picks up a schedule another process added (the CLI) within syncMs', async () => {
    const store = new MemoryStore();
    const registry = testRegistry({ agencies: [echoAgency('echo', store)], store, demo: false });
    const server = new LocalSchedules({
      store,
      executor: inProcessExecutor(registry),
      syncMs: 50,
    });
    open.push(server);
    await server.start();
    // The CLI: no executor, it only writes the record.
    await new LocalSchedules({ store }).add({
      id: 'cli',
      every: '150ms',
      agency: 'echo',
      message: 'from the cli',
      source: 'api',
    });
    const view = await until(
      () => server.get('cli'),
      (v) => (v?.status.runs ?? 0) >= 1,
    );
    expect(view!.status.lastRunId).toMatch(/^chat_sched_cli_/);
    await expect(new LocalSchedules({ store }).start()).rejects.toThrow(/pass an executor/);
  });
});
