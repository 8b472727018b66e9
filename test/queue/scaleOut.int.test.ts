/**
 * Scale-out on real Redis (queue) and Postgres (store): one `colloquy serve --queue` and three
 * `colloquy worker` processes run 200 chats (two messages each, a third with nested delegation)
 * and 50 ensemble runs; one worker is SIGKILLed mid-way and a new one started. Every call and run
 * completes, every thread holds exactly the items a single-process run gives, and every ensemble
 * result equals a single-process run's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { rmSync } from 'node:fs';
import pLimit from 'p-limit';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadProjectProfiles } from '../../src/models/projectConfig.js';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { PostgresStore } from '../../src/stores/postgres.js';
import { comparable } from '../ensembles/helpers.js';
import {
  postgresSkip,
  postgresUrl,
  redisSkip,
  redisUrl,
  uniqueName,
} from '../setup/serviceUrls.js';
import {
  postJson,
  startServer,
  startWorker,
  threadsOf,
  writeProject,
  type Child,
} from './cluster.js';
import { createAgencies } from './fixtures/agencies.js';

const skip = redisSkip() ?? postgresSkip();
const CHATS = 200;
const RUNS = 50;

/** The threads of a chat as normalised item lists, by thread id. */
function messagesOf(i: number): { agency: string; messages: string[] } {
  return {
    agency: i % 3 === 0 ? 'team' : 'echo',
    messages: [`chat ${i}: hello`, `chat ${i}: and again`],
  };
}

async function sse(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.text();
}

describe.skipIf(Boolean(skip))(
  `scale-out: 1 server + 3 workers, a worker killed mid-way${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const children: Child[] = [];
    let project = '';
    let store: PostgresStore;
    const prefix = uniqueName('scale');

    beforeAll(() => {
      project = writeProject();
      store = new PostgresStore({ connectionString: postgresUrl()! });
      process.env.COLLOQUY_TEST_MODEL_DELAY_MS = '0';
    });
    afterAll(async () => {
      if (process.env.COLLOQUY_TEST_DEBUG)
        for (const child of children)
          console.info(
            child.process.exitCode,
            child.process.signalCode,
            child.output().slice(-4000),
          );
      for (const child of children) child.process.kill('SIGKILL');
      await store?.close();
      rmSync(project, { recursive: true, force: true });
    });

    it(`${CHATS} chats and ${RUNS} ensemble runs: all complete, no item duplicated or lost`, async () => {
      const queue = redisUrl()!;
      const pg = postgresUrl()!;
      const started = await Promise.all([
        startServer(project, queue, pg, prefix),
        ...[0, 1, 2].map(() =>
          startWorker(project, queue, pg, prefix, ['--lock-duration', '2000']),
        ),
      ]);
      children.push(...started);
      const server = started[0] as Child & { url: string };
      const tag = uniqueName('c');

      let completedCalls = 0;
      let killed: Promise<void> | undefined;
      const afterCall = () => {
        completedCalls += 1;
        if (completedCalls === 120 && !killed) {
          killed = (async () => {
            children[1]!.process.kill('SIGKILL');
            await children[1]!.exited;
            children.push(
              await startWorker(project, queue, pg, prefix, ['--lock-duration', '2000']),
            );
          })();
        }
      };

      const limit = pLimit(24);
      const chats = Array.from({ length: CHATS }, (_, i) =>
        limit(async () => {
          const { agency, messages } = messagesOf(i);
          const chatId = `${tag}-${i}`;
          for (const [n, message] of messages.entries()) {
            const url = `${server.url}/agencies/${agency}/responses`;
            if (n === 1 && i % 2 === 1) {
              const text = await sse(`${url}/stream`, { message, chatId });
              expect(text).toContain('event: run_completed');
            } else {
              const reply = await postJson(url, { message, chatId });
              expect(reply.status, JSON.stringify(reply.body)).toBe(200);
            }
            afterCall();
          }
        }),
      );
      const runs = Array.from({ length: RUNS }, (_, k) =>
        (async () => {
          const runId = `${tag}-run-${k}`;
          const start = await postJson(`${server.url}/ensembles/pipeline/runs`, {
            input: `task ${k}`,
            runId,
          });
          expect(start.status, JSON.stringify(start.body)).toBe(202);
          for (;;) {
            const state = (await (await fetch(`${server.url}/runs/${runId}`)).json()) as {
              status: string;
              result?: unknown;
            };
            if (state.status === 'finished') return state.result;
            expect(state.status, JSON.stringify(state)).toBe('running');
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        })(),
      );
      await Promise.all(chats);
      const results = await Promise.all(runs);
      await killed;

      // The single-process reference: the same calls, in order, on a memory store.
      const memory = new MemoryStore();
      const agencies = new Map(createAgencies({ store: memory }).map((a) => [a.name, a]));
      let items = 0;
      let duplicates = 0;
      let lost = 0;
      for (let i = 0; i < CHATS; i++) {
        const { agency, messages } = messagesOf(i);
        const chatId = `${tag}-${i}`;
        for (const message of messages)
          await agencies.get(agency)!.getResponse(message, { chatId });
        const expected = await threadsOf(memory, chatId);
        const actual = await threadsOf(store, chatId);
        for (const [threadId, list] of Object.entries(expected)) {
          const got = actual[threadId] ?? [];
          items += got.length;
          duplicates += Math.max(0, got.length - list.length);
          lost += Math.max(0, list.length - got.length);
        }
        expect(actual, `chat ${chatId}`).toEqual(expected);
      }
      const ensemble = await loadEnsemble(path.join(project, 'ensembles', 'pipeline.yaml'));
      const profiles = await loadProjectProfiles({ cwd: project });
      // A few at a time: 50 runs at once start 100 script processes in this one process, and on a
      // loaded machine a script then can time out in the reference itself.
      const referenceLimit = pLimit(4);
      const references = await Promise.all(
        Array.from({ length: RUNS }, (_, k) =>
          referenceLimit(() =>
            runEnsemble(ensemble, {
              store: new MemoryStore(),
              input: `task ${k}`,
              runId: `${tag}-run-${k}`,
              profiles,
            }),
          ),
        ),
      );
      for (let k = 0; k < RUNS; k++)
        expect(comparable(results[k] as never)).toEqual(comparable(references[k]!));

      // How many jobs a dead worker left behind and another one finished.
      const connection = new Redis(queue, { maxRetriesPerRequest: null });
      const bull = new Queue('work', { connection, prefix });
      const done = await bull.getJobs(['completed'], 0, -1);
      const retried = done.filter((job) => job.stalledCounter > 0).length;
      await bull.close();
      connection.disconnect();
      console.info(
        `scale-out: ${CHATS * 2} calls in ${CHATS} chats, ${RUNS} runs; items checked ${items}, ` +
          `duplicates ${duplicates}, lost ${lost}; jobs retried after the SIGKILL: ${retried}`,
      );
      expect(done.length).toBe(CHATS * 2 + RUNS);
      expect(retried).toBeGreaterThan(0);
    }, 150_000);
  },
);
