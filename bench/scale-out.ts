/**
 * Scale-out benchmark: `npx tsx bench/scale-out.ts`. Needs a Redis (queue) and a Postgres (store)
 * on loopback: COLLOQUY_TEST_REDIS_URL and COLLOQUY_TEST_POSTGRES_URL (e.g. from
 * `eval "$(scripts/services.sh start)"`). Measures, with scripted models that answer at once:
 * 1. the median latency the queue adds to one agency call (queued through one idle worker,
 *    against the same call in this process, both on the Postgres store), and the queue floor: a
 *    bare BullMQ job (`bench/queueFloorWorker.ts`, an empty processor in its own process) from
 *    add to the producer hearing it is done, by pub/sub (as Colloquy's calls) and by QueueEvents;
 * 2. throughput of agency calls and of ensemble turns with 1, 2 and 4 `colloquy worker`
 *    processes (4 jobs each), and the figure per worker.
 * Every process shares this machine's cores, so past the core count more workers add no speed.
 * `--latency` measures only 1.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import pLimit from 'p-limit';
import { DirectoryEnsembleCatalog } from '../src/server/ensembleCatalog.js';
import { PostgresStore } from '../src/stores/postgres.js';
import { QueueClient } from '../src/queue/client.js';
import { queueAgency } from '../src/queue/queueAgency.js';
import { QueuedRuns } from '../src/queue/queuedRuns.js';
import { startWorker, writeProject, type Child } from '../test/queue/cluster.js';
import { createAgencies } from '../test/queue/fixtures/agencies.js';

const queue = process.env.COLLOQUY_TEST_REDIS_URL;
const postgres = process.env.COLLOQUY_TEST_POSTGRES_URL;
if (!queue || !postgres) {
  console.error(
    'Set COLLOQUY_TEST_REDIS_URL and COLLOQUY_TEST_POSTGRES_URL (eval "$(scripts/services.sh start)" starts both).',
  );
  process.exit(2);
}
process.env.COLLOQUY_TEST_MODEL_DELAY_MS = '0';
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const project = writeProject();
const store = new PostgresStore({ connectionString: postgres });
const run = `bench${Date.now().toString(36)}`;

async function workers(count: number, prefix: string): Promise<Child[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      startWorker(project, queue!, postgres!, prefix, ['--concurrency', '4']),
    ),
  );
}

async function stop(children: Child[]): Promise<void> {
  for (const child of children) child.process.kill('SIGTERM');
  await Promise.all(children.map((child) => child.exited));
}

/**
 * Medians (ms) of `n` rounds after 10 warm-up rounds; each round times one call of every kind in
 * turn (each in a new chat), so that every kind sees the same load on this shared machine.
 */
async function latencies<K extends string>(
  calls: Record<K, (id: string) => Promise<unknown>>,
  n: number,
): Promise<Record<K, number>> {
  const times = Object.fromEntries(Object.keys(calls).map((kind) => [kind, [] as number[]]));
  for (let i = 0; i < n + 10; i++) {
    for (const [kind, call] of Object.entries(calls) as Array<
      [K, (id: string) => Promise<unknown>]
    >) {
      const started = performance.now();
      await call(`${run}-lat-${Math.random().toString(36).slice(2)}`);
      if (i >= 10) times[kind]!.push(performance.now() - started);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([kind, xs]) => [kind, median(xs as number[])]),
  ) as Record<K, number>;
}

/**
 * The queue floor: a bare BullMQ job (empty processor in its own process) from add until the
 * producer hears it is done, by pub/sub (as Colloquy's calls) or by QueueEvents' 'completed'.
 */
async function queueFloor(): Promise<{
  pubsub: (id: string) => Promise<void>;
  events: (id: string) => Promise<void>;
  close: () => Promise<void>;
}> {
  const prefix = `${run}-floor`;
  const worker = fork(
    fileURLToPath(new URL('./queueFloorWorker.ts', import.meta.url)),
    [queue!, prefix],
    { execArgv: ['--import', 'tsx'] },
  );
  await once(worker, 'message');
  const producer = new Redis(queue!);
  const subscriber = new Redis(queue!);
  const floor = new Queue('floor', { connection: producer, prefix });
  const events = new QueueEvents('floor', {
    connection: new Redis(queue!, { maxRetriesPerRequest: null }),
    prefix,
  });
  await events.waitUntilReady();
  const channel = `${prefix}:done`;
  const waiting = new Map<string, () => void>();
  subscriber.on('message', (_channel: string, id: string) => waiting.get(id)?.());
  await subscriber.subscribe(channel);
  const options = { removeOnComplete: { age: 3_600 } };
  return {
    async pubsub(id) {
      const done = new Promise<void>((resolve) => waiting.set(id, resolve));
      await floor.add('floor', { channel }, { ...options, jobId: id });
      await done;
      waiting.delete(id);
    },
    async events(id) {
      const job = await floor.add('floor', {}, { ...options, jobId: id });
      await job.waitUntilFinished(events);
    },
    async close() {
      worker.kill('SIGTERM');
      await once(worker, 'exit');
      await events.close();
      await floor.close();
      for (const client of [producer, subscriber]) client.disconnect();
    },
  };
}

// 1. Added latency, and the floor under it.
const load = () => `load average ${os.loadavg()[0]!.toFixed(1)}`;
const echo = createAgencies({ store }).find((agency) => agency.name === 'echo')!;
const prefix1 = `${run}-lat`;
let children = await workers(1, prefix1);
const client = new QueueClient({ queue, prefix: prefix1 });
const queued = queueAgency({ agency: 'echo', client });
const floor = await queueFloor();
const loadBefore = load();
const medians = await latencies(
  {
    inProcess: (chatId) => echo.getResponse('hello', { chatId }),
    queued: (chatId) => queued.getResponse('hello', { chatId }),
    floor: floor.pubsub,
    floorEvents: floor.events,
  },
  100,
);
console.log(
  `agency call, medians of 100 rounds (${loadBefore} → ${load()}): in-process ${medians.inProcess.toFixed(2)} ms, ` +
    `queued ${medians.queued.toFixed(2)} ms, added by the queue ${(medians.queued - medians.inProcess).toFixed(2)} ms`,
);
console.log(
  `queue floor (bare BullMQ job, empty processor in another process), add until done: ` +
    `by pub/sub ${medians.floor.toFixed(2)} ms, by QueueEvents ${medians.floorEvents.toFixed(2)} ms; ` +
    `the call adds ${(medians.queued - medians.inProcess - medians.floor).toFixed(2)} ms above the pub/sub floor`,
);
await floor.close();
await client.close();
await stop(children);

if (process.argv.includes('--latency')) {
  await store.close();
  process.exit(0);
}

// 2. Throughput with 1, 2, 4 workers.
const CALLS = 200;
const RUNS = 30;
console.log(
  `\ncores: ${os.cpus().length}, load average ${os.loadavg()[0]!.toFixed(1)}; ${CALLS} calls (32 at a time), ${RUNS} runs of a 3-turn ensemble (16 at a time)`,
);
console.log('workers | calls/s | per worker | turns/s | per worker');
for (const count of [1, 2, 4]) {
  const prefix = `${run}-w${count}`;
  children = await workers(count, prefix);
  const producer = new QueueClient({ queue, prefix });
  const agency = queueAgency({ agency: 'echo', client: producer });
  const limit = pLimit(32);
  let started = performance.now();
  await Promise.all(
    Array.from({ length: CALLS }, (_, i) =>
      limit(() => agency.getResponse(`message ${i}`, { chatId: `${prefix}-chat-${i}` })),
    ),
  );
  const callsPerSecond = CALLS / ((performance.now() - started) / 1000);
  const runs = new QueuedRuns(
    producer,
    new DirectoryEnsembleCatalog({ dir: path.join(project, 'ensembles') }),
    store,
  );
  const runLimit = pLimit(16);
  started = performance.now();
  let turns = 0;
  await Promise.all(
    Array.from({ length: RUNS }, (_, i) =>
      runLimit(async () => {
        const { runId } = await runs.start('chain', { runId: `${prefix}-run-${i}` });
        for await (const [, event] of runs.follow(runId)) {
          if (event.type === 'ensemble_finished') turns += event.result.turn_count;
          if (event.type === 'error') throw new Error(event.error.message);
        }
      }),
    ),
  );
  const turnsPerSecond = turns / ((performance.now() - started) / 1000);
  console.log(
    `${String(count).padStart(7)} | ${callsPerSecond.toFixed(1).padStart(7)} | ${(callsPerSecond / count).toFixed(1).padStart(10)} | ${turnsPerSecond.toFixed(1).padStart(7)} | ${(turnsPerSecond / count).toFixed(1).padStart(10)}`,
  );
  await producer.close();
  await stop(children);
}
await store.close();
process.exit(0);
