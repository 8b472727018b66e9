/**
 * A worker's life around the calls it runs, with real processes (`colloquy serve --queue` and
 * `colloquy worker`) on the test Redis and Postgres: SIGTERM lets a worker finish its calls, or
 * (past its grace period) hand them back to another worker with nothing lost and nothing written
 * twice; a cancellation (`DELETE` or a client that disconnects) stops the call on its worker; an
 * approval pending in a call is answered after its worker was SIGKILLed; `/v1/responses` runs on
 * workers too.
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queueConnection } from '../../src/queue/connection.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { PostgresStore } from '../../src/stores/postgres.js';
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

describe.skipIf(Boolean(skip))(
  `a worker's life: SIGTERM, cancellation, approvals after SIGKILL${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const prefix = uniqueName('life');
    let project = '';
    let server: Child & { url: string };
    let store: PostgresStore;
    let queue: Queue;
    let redis: Redis;
    const workers: Child[] = [];

    const worker = async (extra: string[] = []) => {
      const child = await startWorker(project, redisUrl()!, postgresUrl()!, prefix, [
        '--lock-duration',
        '2000',
        ...extra,
      ]);
      workers.push(child);
      return child;
    };

    /** The call jobs of a chat, newest first. */
    const jobsOf = async (chatId: string): Promise<Job[]> => {
      const jobs = await queue.getJobs(['completed', 'failed', 'active', 'wait', 'delayed']);
      return jobs.filter((job) => job?.data?.chatId === chatId);
    };

    /** Waits until a job of `chatId` is active on a worker. */
    const running = async (chatId: string): Promise<void> => {
      for (let i = 0; i < 300; i++) {
        const jobs = await queue.getJobs(['active']);
        if (jobs.some((job) => job?.data?.chatId === chatId)) return;
        await sleep(20);
      }
      throw new Error(`no call of chat ${chatId} became active`);
    };

    beforeAll(async () => {
      project = writeProject();
      store = new PostgresStore({ connectionString: postgresUrl()! });
      redis = new Redis(redisUrl()!, { maxRetriesPerRequest: 3 });
      queue = new Queue('work', { connection: redis, prefix });
      process.env.COLLOQUY_TEST_MODEL_DELAY_MS = '0';
      server = await startServer(project, redisUrl()!, postgresUrl()!, prefix);
    }, 60_000);

    afterEach(async () => {
      for (const child of workers.splice(0)) {
        child.process.kill('SIGKILL');
        await child.exited;
      }
    });

    afterAll(async () => {
      server?.process.kill('SIGKILL');
      await queue?.close();
      redis?.disconnect();
      await store?.close();
      if (project) rmSync(project, { recursive: true, force: true });
    });

    it('SIGTERM: the worker finishes its running calls within the grace period, then exits', async () => {
      const first = await worker(['--grace', '10000']);
      const chats = [1, 2, 3].map((i) => uniqueName(`term${i}`));
      const replies = chats.map((chatId) =>
        postJson(`${server.url}/agencies/echo/responses`, { message: 'slow: finish me', chatId }),
      );
      await Promise.all(chats.map(running));
      first.process.kill('SIGTERM');
      const results = await Promise.all(replies);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(await first.exited).toBe(0);
      expect(first.output()).toMatch(/SIGTERM: finishing running jobs/);
      for (const chatId of chats) {
        const jobs = await jobsOf(chatId);
        expect(jobs).toHaveLength(1);
        // Finished by the worker that took it: no retry was needed.
        expect(jobs[0]!.stalledCounter).toBe(0);
        const [thread] = Object.values(await threadsOf(store, chatId));
        expect(thread).toHaveLength(2);
      }
    }, 60_000);

    it('SIGTERM past the grace period: running calls go back to the queue and another worker completes them once', async () => {
      const first = await worker(['--grace', '300']);
      const chats = [1, 2].map((i) => uniqueName(`handback${i}`));
      const replies = chats.map((chatId) =>
        postJson(`${server.url}/agencies/echo/responses`, {
          message: 'hold: hand me back',
          chatId,
        }),
      );
      await Promise.all(chats.map(running));
      // The calls run on the worker now (in the model's 4 s wait): each chat's journal holds the
      // snapshot a retry restores.
      const { keys } = queueConnection({ queue: redisUrl()!, prefix });
      const begun = async () => {
        for (const chatId of chats)
          expect(await redis.exists(keys.journal('echo', chatId)), chatId).toBe(1);
      };
      await vi.waitFor(begun, { timeout: 10_000, interval: 20 });
      first.process.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      // Nothing is answered yet: the calls wait in the queue for a worker.
      for (const chatId of chats) {
        const [job] = await jobsOf(chatId);
        expect(['wait', 'delayed']).toContain(await job!.getState());
      }
      await worker();
      const results = await Promise.all(replies);
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      const memory = new MemoryStore();
      const echo = createAgencies({ store: memory }).find((a) => a.name === 'echo')!;
      for (const chatId of chats) {
        await echo.getResponse('hold: hand me back', { chatId });
        expect(Object.values(await threadsOf(store, chatId))).toEqual(
          Object.values(await threadsOf(memory, chatId)),
        );
        const [thread] = Object.values(await threadsOf(store, chatId));
        expect(thread).toHaveLength(2); // one user item, one answer: none written twice
      }
    }, 60_000);

    it('DELETE /agencies/:name/chats/:chatId/calls stops the call on its worker', async () => {
      await worker();
      const chatId = uniqueName('delete');
      const started = Date.now();
      const reply = postJson(`${server.url}/agencies/echo/responses`, {
        message: 'hold: cancel me',
        chatId,
      });
      await running(chatId);
      const cancel = await fetch(`${server.url}/agencies/echo/chats/${chatId}/calls`, {
        method: 'DELETE',
      });
      expect(await cancel.json()).toEqual({ chatId, cancelled: 1 });
      const result = await reply;
      expect(result.status, JSON.stringify(result.body)).toBe(503);
      expect(result.body.error.code).toBe('ABORTED');
      expect(Date.now() - started).toBeLessThan(3_500); // the model's 4 s wait was cut short
      const [job] = await jobsOf(chatId);
      expect(job!.returnvalue).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
      // Nothing left to cancel.
      const again = await fetch(`${server.url}/agencies/echo/chats/${chatId}/calls`, {
        method: 'DELETE',
      });
      expect(await again.json()).toEqual({ chatId, cancelled: 0 });
    }, 60_000);

    it('a client that disconnects from the stream (onDisconnect: "cancel") stops the call on its worker', async () => {
      await worker();
      const chatId = uniqueName('disconnect');
      const controller = new AbortController();
      const response = await fetch(`${server.url}/agencies/echo/responses/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'hold: leave me', chatId, onDisconnect: 'cancel' }),
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      await running(chatId);
      const left = Date.now();
      controller.abort();
      let job: Job | undefined;
      for (let i = 0; i < 150; i++) {
        [job] = await jobsOf(chatId);
        if (job && (await job.getState()) === 'completed') break;
        await sleep(20);
      }
      expect(await job!.getState()).toBe('completed');
      const finished = await Job.fromId(queue, job!.id!);
      expect(finished!.returnvalue).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
      expect(finished!.finishedOn! - left).toBeLessThan(3_000);
    }, 60_000);

    it('an approval pending in a call is answered after its worker was SIGKILLed: another worker resumes it', async () => {
      const first = await worker();
      const chatId = uniqueName('approve');
      const asked = await postJson(`${server.url}/agencies/office/responses`, {
        message: 'tidy',
        chatId,
      });
      expect(asked.status).toBe(200);
      expect(asked.body.interruptions).toEqual([
        expect.objectContaining({ toolName: 'delete_reports', agent: 'Clerk' }),
      ]);
      first.process.kill('SIGKILL');
      await first.exited;
      await worker();
      const resumed = await postJson(`${server.url}/agencies/office/resume`, {
        state: asked.body.state,
        approve: true,
      });
      expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
      expect(resumed.body.finalOutput).toBe('Front: Clerk: deleted 2020');
      // The resumption ran on a worker (a job of the chat), not in the server.
      const jobs = await jobsOf(chatId);
      expect(jobs.map((job) => Boolean(job.data.resume)).sort()).toEqual([false, true]);
      // The threads equal those of one process answering the same approval.
      const memory = new MemoryStore();
      const office = createAgencies({ store: memory }).find((a) => a.name === 'office')!;
      const local = await office.getResponse('tidy', { chatId });
      await office.resume(local.state!, { approve: true });
      expect(Object.values(await threadsOf(store, chatId))).toEqual(
        Object.values(await threadsOf(memory, chatId)),
      );
    }, 60_000);

    it('/v1/responses runs on a worker, JSON and streamed', async () => {
      await worker();
      const chatId = uniqueName('responses');
      const response = await fetch(`${server.url}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-colloquy-chat-id': chatId },
        body: JSON.stringify({ model: 'echo', input: 'through the queue' }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as any;
      expect(body.output[0].content[0].text).toBe('echo: through the queue');
      const streamed = await fetch(`${server.url}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-colloquy-chat-id': chatId },
        body: JSON.stringify({ model: 'echo', input: 'streamed too', stream: true }),
      });
      const text = await streamed.text();
      expect(text).toContain('event: response.completed');
      expect(text).toContain('echo: streamed too');
      // The answer streams before BullMQ stores the job's return value: wait for it (up to 5 s).
      let jobs = await jobsOf(chatId);
      for (let i = 0; i < 100 && !jobs.every((job) => job.returnvalue?.ok === true); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        jobs = await jobsOf(chatId);
      }
      expect(jobs.map((job) => job.data.stream).sort()).toEqual([false, true]);
      expect(jobs.every((job) => job.returnvalue?.ok === true)).toBe(true);
    }, 60_000);
  },
);
