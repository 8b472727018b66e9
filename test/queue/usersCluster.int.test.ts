/**
 * Users on a queue + Postgres cluster: two `colloquy serve --auth jwt --queue` servers and two
 * `colloquy worker` processes share one Redis and one Postgres. Two users with different JWTs
 * each see only their own chats, runs and traces on both servers; another user's chat id is a 404
 * everywhere; background calls answer on either server (`GET /runs/:id`, `/events` with
 * `Last-Event-ID`, `DELETE`); and a worker refuses (and logs) a forged job for someone's chat.
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postgresSkip,
  postgresUrl,
  redisSkip,
  redisUrl,
  uniqueName,
} from '../setup/serviceUrls.js';
import { sseEvents, type SseEvent } from '../server/helpers.js';
import { SECRET, tokenFor } from '../server/auth/users.helpers.js';
import { PostgresStore } from '../../src/stores/postgres.js';
import { startColloquy, startWorker, threadsOf, writeProject, type Child } from './cluster.js';

const skip = redisSkip() ?? postgresSkip();

async function readAll(response: Response): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of sseEvents(response)) out.push(event);
  return out;
}

describe.skipIf(Boolean(skip))(
  `users on a cluster: 2 servers, 2 workers, Redis + Postgres${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const prefix = uniqueName('users');
    const children: Child[] = [];
    const servers: string[] = [];
    let project = '';
    let redis: Redis;
    let queue: Queue;
    let store: PostgresStore;
    const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

    /** A request as `user` to server `at` (0 or 1). */
    const as = (user: 'alice' | 'bob', at: number) => {
      const headers = (extra: Record<string, string> = {}) => ({
        authorization: `Bearer ${tokens[user]}`,
        ...extra,
      });
      return {
        get: (path: string, extra?: Record<string, string>) =>
          fetch(`${servers[at]}${path}`, { headers: headers(extra) }),
        send: (method: string, path: string, body?: unknown, signal?: AbortSignal) =>
          fetch(`${servers[at]}${path}`, {
            method,
            headers: headers({ 'content-type': 'application/json' }),
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            ...(signal ? { signal } : {}),
          }),
      };
    };
    const json = async (response: Response) => ({
      status: response.status,
      body: (await response.json()) as any,
    });
    const finished = async (user: 'alice' | 'bob', at: number, runId: string) => {
      for (let i = 0; i < 600; i++) {
        const { body } = await json(await as(user, at).get(`/runs/${runId}`));
        if (body.status !== 'running') return body;
        await sleep(20);
      }
      throw new Error(`run ${runId} did not end`);
    };

    beforeAll(async () => {
      project = writeProject();
      process.env.COLLOQUY_TEST_MODEL_DELAY_MS = '0';
      const queueUrl = redisUrl()!;
      const pg = postgresUrl()!;
      const serve = () =>
        startColloquy(
          [
            'serve',
            '--port',
            '0',
            '--no-demo',
            '--auth',
            'jwt',
            '--queue',
            queueUrl,
            '--store',
            pg,
            '--queue-prefix',
            prefix,
          ],
          project,
          /listening on (http:\/\/\S+)/,
          { COLLOQUY_JWT_SECRET: SECRET },
        );
      const started = await Promise.all([
        serve(),
        serve(),
        startWorker(project, queueUrl, pg, prefix),
        startWorker(project, queueUrl, pg, prefix),
      ]);
      children.push(...started);
      servers.push(started[0].match[1]!, started[1].match[1]!);
      tokens.alice = await tokenFor('alice');
      tokens.bob = await tokenFor('bob');
      redis = new Redis(queueUrl, { maxRetriesPerRequest: 3 });
      queue = new Queue('work', { connection: redis, prefix });
      store = new PostgresStore({ connectionString: pg });
    }, 90_000);

    afterAll(async () => {
      if (process.env.COLLOQUY_TEST_DEBUG)
        for (const child of children) console.info(child.output().slice(-4000));
      for (const child of children) child.process.kill('SIGKILL');
      await queue?.close();
      await store?.close();
      redis?.disconnect();
      if (project) rmSync(project, { recursive: true, force: true });
    });

    it('each user sees only their own chats, runs and traces on both servers; another chat id is a 404', async () => {
      const aliceChat = uniqueName('alice-chat');
      const bobChat = uniqueName('bob-chat');
      const a = await json(
        await as('alice', 0).send('POST', '/agencies/echo/responses', {
          message: 'hi from alice',
          chatId: aliceChat,
        }),
      );
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      const b = await json(
        await as('bob', 1).send('POST', '/agencies/echo/responses', {
          message: 'hi from bob',
          chatId: bobChat,
        }),
      );
      expect(b.status, JSON.stringify(b.body)).toBe(200);
      const run = await json(
        await as('alice', 1).send('POST', '/agencies/echo/runs', {
          message: 'a run',
          chatId: aliceChat,
        }),
      );
      expect(run.status).toBe(202);
      await finished('alice', 0, run.body.runId);

      for (const at of [0, 1]) {
        // Lists: one's own only.
        // (searched by id: the shared store holds the chats of every other test too)
        const chats = (user: 'alice' | 'bob', q: string) =>
          as(user, at)
            .get(`/chats?agency=echo&q=${q}`)
            .then(json)
            .then(({ body }) => body.chats.map((chat: { chatId: string }) => chat.chatId));
        expect(await chats('alice', aliceChat)).toEqual([aliceChat]);
        expect(await chats('alice', bobChat)).toEqual([]);
        expect(await chats('bob', bobChat)).toEqual([bobChat]);
        expect(await chats('bob', aliceChat)).toEqual([]);
        const traces = await json(await as('bob', at).get('/traces'));
        expect(traces.status).toBe(200);
        for (const trace of traces.body.traces) expect(trace.chatId).not.toBe(aliceChat);

        // Another user's chat, by path, body, header or `user`: 404, exactly as an unknown one.
        const bob = as('bob', at);
        for (const response of [
          await bob.get(`/chats/${aliceChat}/threads`),
          await bob.get(`/chats/${aliceChat}/checkpoints`),
          await bob.send('POST', `/chats/${aliceChat}/fork`, {}),
          await bob.send('DELETE', `/chats/${aliceChat}`),
          await bob.send('POST', '/agencies/echo/responses', { message: 'x', chatId: aliceChat }),
          await bob.send('POST', '/agencies/echo/responses/stream', {
            message: 'x',
            chatId: aliceChat,
          }),
          await bob.send('POST', '/v1/chat/completions', {
            model: 'echo',
            user: aliceChat,
            messages: [{ role: 'user', content: 'x' }],
          }),
        ]) {
          expect(response.status).toBe(404);
          expect((await json(response)).body.error.code).toBe('CHAT_NOT_FOUND');
        }
        // Another user's background call: 404 on both servers, for reads, events and cancels.
        for (const response of [
          await bob.get(`/runs/${run.body.runId}`),
          await bob.get(`/runs/${run.body.runId}/events`),
          await bob.send('DELETE', `/runs/${run.body.runId}`),
        ]) {
          expect(response.status).toBe(404);
          expect((await json(response)).body.error.code).toBe('RUN_NOT_FOUND');
        }
        expect(
          (await json(await as('alice', at).get(`/runs/${run.body.runId}`))).body,
        ).toMatchObject({
          status: 'completed',
          chatId: aliceChat,
          result: { finalOutput: 'echo: a run' },
        });
      }
      // Alice's chat holds only her messages: nothing Bob sent reached it.
      const items = JSON.stringify(await threadsOf(store, aliceChat));
      expect(items).toContain('hi from alice');
      expect(items).not.toMatch(/\\"x\\"/);
    }, 60_000);

    it('a stream left on one server is rejoined on the other: every event once, the same result', async () => {
      const chatId = uniqueName('rejoin');
      const leave = new AbortController();
      const response = await as('alice', 0).send(
        'POST',
        '/agencies/team/responses/stream',
        { message: 'slow: plan the trip', chatId },
        leave.signal,
      );
      const runId = response.headers.get('x-colloquy-run-id')!;
      expect(runId).toMatch(/^callrun_/);
      const seen: SseEvent[] = [];
      for await (const event of sseEvents(response)) {
        seen.push(event);
        if (seen.length >= 2) break;
      }
      leave.abort();
      expect(JSON.parse(seen[0]!.data)).toMatchObject({ type: 'run_started', runId, chatId });

      const rest = await readAll(
        await as('alice', 1).get(`/runs/${runId}/events`, { 'last-event-id': seen.at(-1)!.id! }),
      );
      const done = await finished('alice', 1, runId);
      expect(done.status).toBe('completed');
      const everything = await readAll(await as('alice', 0).get(`/runs/${runId}/events`));
      const joined = [...seen, ...rest];
      expect(new Set(joined.map((e) => e.id)).size).toBe(joined.length);
      expect(joined.map((e) => [e.id, e.data])).toEqual(everything.map((e) => [e.id, e.data]));
      expect(everything.at(-1)!.event).toBe('run_completed');
      expect(done.result.finalOutput).toMatch(
        /^Lead answer \(helped: Help with: slow: plan the trip\)/,
      );

      const again = await json(
        await as('alice', 1).send('POST', '/agencies/team/responses', {
          message: 'slow: plan the trip',
          chatId: uniqueName('uninterrupted'),
        }),
      );
      expect(again.body.finalOutput).toBe(done.result.finalOutput);
      expect(again.body.newItems.map((item: { type: string }) => item.type)).toEqual(
        done.result.newItems.map((item: { type: string }) => item.type),
      );
      // Bob cannot follow it on either server.
      for (const at of [0, 1])
        expect((await as('bob', at).get(`/runs/${runId}/events`)).status).toBe(404);
    }, 60_000);

    it('DELETE /runs/:id on the other server cancels a call the first one drives', async () => {
      const started = await json(
        await as('alice', 0).send('POST', '/agencies/echo/runs', {
          message: 'hold: wait for me',
          chatId: uniqueName('cancel'),
        }),
      );
      expect(started.status).toBe(202);
      const cancel = await json(await as('alice', 1).send('DELETE', `/runs/${started.body.runId}`));
      expect(cancel.status).toBe(202);
      const ended = await finished('alice', 0, started.body.runId);
      expect(ended.status).toBe('cancelled');
      const events = await readAll(await as('alice', 1).get(`/runs/${started.body.runId}/events`));
      expect(events.at(-1)!.event).toBe('run_failed');
    }, 60_000);

    it('a worker refuses a forged job for another user’s chat, and logs it', async () => {
      const chatId = uniqueName('victim');
      const made = await as('alice', 0).send('POST', '/agencies/echo/responses', {
        message: 'mine',
        chatId,
      });
      expect(made.status).toBe(200);
      const forged = async (owner?: { userId: string; admin: boolean }) => {
        const callId = `call_forged_${uniqueName('f')}`;
        await queue.add(
          'agency-call',
          {
            callId,
            agency: 'echo',
            chatId,
            message: 'steal',
            stream: false,
            ...(owner ? { owner } : {}),
          },
          { jobId: callId },
        );
        for (let i = 0; i < 500; i++) {
          // The state first, then the job: a job read before it completed keeps a null result.
          if ((await queue.getJobState(callId)) === 'completed')
            return { callId, job: (await Job.fromId(queue, callId))! };
          await sleep(20);
        }
        throw new Error(`forged job ${callId} did not end`);
      };
      for (const owner of [{ userId: 'bob', admin: false }, undefined]) {
        const { callId, job } = await forged(owner);
        expect(job.returnvalue).toMatchObject({ ok: false, error: { code: 'CHAT_NOT_FOUND' } });
        const logged = () =>
          children.some((child) => child.output().includes(`Refused queued call ${callId}`));
        for (let i = 0; i < 100 && !logged(); i++) await sleep(20);
        expect(logged()).toBe(true);
      }
      const items = JSON.stringify(await threadsOf(store, chatId));
      expect(items).toContain('mine');
      expect(items).not.toContain('steal');
      // The owner's own job still runs.
      const own = await json(
        await as('alice', 1).send('POST', '/agencies/echo/responses', { message: 'again', chatId }),
      );
      expect(own.status).toBe(200);
      expect(own.body.finalOutput).toBe('echo: again');
    }, 60_000);
  },
);
