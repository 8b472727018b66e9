/**
 * Scale-out benchmark: `npx tsx bench/scale-out.ts`. Needs a Redis (queue) and a Postgres (store)
 * on loopback: COLLOQUY_TEST_REDIS_URL and COLLOQUY_TEST_POSTGRES_URL (e.g. from
 * `eval "$(scripts/services.sh start)"`). Measures, with scripted models that answer at once:
 * 1. the median latency the queue adds to one agency call (queued through one idle worker,
 *    against the same call in this process, both on the Postgres store);
 * 2. throughput of agency calls and of ensemble turns with 1, 2 and 4 `colloquy worker`
 *    processes (4 jobs each), and the figure per worker.
 * Every process shares this machine's cores, so past the core count more workers add no speed.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
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

/** Median ms of `n` sequential calls, each in a new chat, after 10 warm-up calls. */
async function latency(call: (chatId: string) => Promise<unknown>, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n + 10; i++) {
    const started = performance.now();
    await call(`${run}-lat-${Math.random().toString(36).slice(2)}`);
    if (i >= 10) times.push(performance.now() - started);
  }
  return median(times);
}

// 1. Added latency.
const echo = createAgencies({ store }).find((agency) => agency.name === 'echo');
const inProcess = await latency((chatId) => echo!.getResponse('hello', { chatId }), 100);
const prefix1 = `${run}-lat`;
let children = await workers(1, prefix1);
const client = new QueueClient({ queue, prefix: prefix1 });
const queued = queueAgency({ agency: 'echo', client });
const viaQueue = await latency((chatId) => queued.getResponse('hello', { chatId }), 100);
await client.close();
await stop(children);
console.log(
  `agency call, median of 100: in-process ${inProcess.toFixed(2)} ms, queued ${viaQueue.toFixed(2)} ms, ` +
    `added by the queue ${(viaQueue - inProcess).toFixed(2)} ms`,
);

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
