/**
 * Must-show 4: a schedule every 2 s on the queue, with two workers and two servers (each its own
 * queue client, both adding the same `schedules:` of colloquy.yaml), for 20 s: the runs equal the
 * ticks (each tick ran once, on one worker), and none was missed. Also: ticks that fell while no
 * worker ran are counted as missed when one comes back, and not run late.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Hono } from 'hono';
import { queuedExecutor } from '../../src/queue/queuedExecutor.js';
import { QueueSchedules } from '../../src/queue/schedules.js';
import { createApp } from '../../src/server/app.js';
import { createRegistry } from '../../src/server/registry.js';
import type { ScheduleView } from '../../src/server/schedules/types.js';
import { redisSkip } from '../setup/serviceUrls.js';
import { DelayedEcho, kitAgencies, startKit, type Kit } from './kit.js';

const skip = redisSkip();
const kits: Kit[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  for (const kit of kits.splice(0)) await kit.close();
});

/** A queued server of the kit: its own registry and queue client, and the queue's schedules. */
function server(kit: Kit): { app: Hono; schedules: QueueSchedules } {
  const registry = createRegistry({
    agencies: kitAgencies(kit.store, new DelayedEcho(() => 0)),
    store: kit.store,
    ownsStore: false,
  });
  const executor = queuedExecutor(registry, { queue: kit.queue, prefix: kit.prefix });
  const schedules = new QueueSchedules(executor.client);
  closers.push(() => executor.close());
  return { app: createApp({ registry, executor, schedules }), schedules };
}

async function listed(app: Hono, id: string): Promise<ScheduleView> {
  const body = (await (await app.request('/schedules')).json()) as { schedules: ScheduleView[] };
  return body.schedules.find((schedule) => schedule.id === id)!;
}

async function chatsOf(kit: Kit, id: string): Promise<Set<string>> {
  const chats = new Set<string>();
  for (const thread of await kit.store.listThreads())
    if (thread.chatId?.startsWith(`chat_sched_${id}_`) && thread.version > 0)
      chats.add(thread.chatId);
  return chats;
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

describe.skipIf(Boolean(skip))(`queued schedules${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('runs a 2 s schedule once per tick across two workers and two servers for 20 s', async () => {
    const kit = await startKit({ workers: 2 });
    kits.push(kit);
    const one = server(kit);
    const two = server(kit);
    const config = { every2s: { every: '2s', agency: 'echo', message: 'tick' } };
    // Both servers start with the same colloquy.yaml, at once.
    await Promise.all([one.schedules.start(config), two.schedules.start(config)]);
    const started = Date.now();
    // sleep-ok: the scenario is 20 s of a 2 s schedule; ticks are counted over that window.
    await sleep(20_000);
    const status = (await listed(two.app, 'every2s')).status;
    expect((await two.app.request('/schedules/every2s', { method: 'DELETE' })).status).toBe(200);
    const elapsed = Date.now() - started;
    const jobsNamed = (name: string) =>
      kit.workers.flatMap((w) => w.jobs).filter((j) => j.name === name);
    const ticks = jobsNamed('schedule-tick');
    const perWorker = kit.workers.map(
      (w) => w.jobs.filter((j) => j.name === 'schedule-tick').length,
    );
    // Wait for the last tick's run to end on its worker.
    const calls = await until(
      async () => jobsNamed('agency-call'),
      (ended) => ended.length >= ticks.length,
      10_000,
    );
    const chats = await chatsOf(kit, 'every2s');
    expect(await listed(one.app, 'every2s')).toBeUndefined(); // removed for both servers
    const modelCalls = kit.workers.reduce((sum, w) => sum + w.model.started, 0);
    console.log(
      `must-show 4: ${elapsed} ms, tick jobs ${ticks.length} (status: ticks ${status.ticks}, runs ${status.runs}, missed ${status.missed}), runs ${calls.length} (chats ${chats.size}, model calls ${modelCalls}); tick jobs per worker ${perWorker.join('+')}`,
    );
    expect(ticks.length).toBeGreaterThanOrEqual(9);
    expect(ticks.length).toBeLessThanOrEqual(11);
    expect(new Set(ticks.map((t) => t.id)).size).toBe(ticks.length);
    expect(calls.length).toBe(ticks.length);
    expect(calls.every((call) => call.outcome === 'completed')).toBe(true);
    expect(status.missed).toBe(0);
    expect(status.runs).toBe(status.ticks);
    expect(status.ticks).toBeGreaterThanOrEqual(ticks.length - 1); // the last tick may follow the read
    expect(chats.size).toBe(ticks.length);
    expect(modelCalls).toBe(ticks.length);
  }, 60_000);

  it('keeps the status in Redis: ticks, runs and no missed ticks while workers run', async () => {
    const kit = await startKit({ workers: 1 });
    kits.push(kit);
    const { app } = server(kit);
    const added = await app.request('/schedules', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'quick', every: '1s', agency: 'echo', message: 'hi' }),
    });
    expect(added.status).toBe(201);
    const view = await until(
      () => listed(app, 'quick'),
      (v) => v.status.runs >= 2,
      10_000,
    );
    expect(view.status.missed).toBe(0);
    expect(view.status.runs).toBe(view.status.ticks);
    expect(view.status.lastRunId).toMatch(/^chat_sched_quick_\d+$/);
    expect(view.status.nextTickAt).toBeDefined();
  }, 30_000);

  it('counts the ticks that fell while no worker ran as missed, and runs none of them late', async () => {
    const kit = await startKit({ workers: 0 });
    kits.push(kit);
    const { app, schedules } = server(kit);
    await schedules.add({ id: 'down', every: '1s', agency: 'echo', message: 'x', source: 'api' });
    // sleep-ok: the outage itself: ticks fall as time passes, with nothing in Redis to poll.
    await sleep(3_500); // no worker: the ticks fall with nothing to run them
    const worker = await kit.addWorker();
    const view = await until(
      () => listed(app, 'down'),
      (v) => v.status.missed >= 1,
      10_000,
    );
    expect(view.status.missed).toBeGreaterThanOrEqual(2);
    expect(view.status.missed).toBeLessThanOrEqual(5);
    // The late tick ran nothing; the ones after it run on time.
    const after = await until(
      () => listed(app, 'down'),
      (v) => v.status.runs >= 1,
      10_000,
    );
    expect(after.status.runs).toBe(after.status.ticks);
    const late = worker.jobs.filter((j) => j.name === 'schedule-tick').length;
    expect(late).toBeGreaterThanOrEqual(after.status.ticks + 1);
  }, 30_000);
});
