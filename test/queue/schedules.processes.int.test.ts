/**
 * Must-show 4 across processes: two `colloquy worker` and two `colloquy serve --queue` processes
 * on one Redis, all reading a colloquy.yaml with a schedule every 2 s, for 20 s. Every tick is
 * handled once (one tick mark each), every handled tick ran exactly one call (one chat each), and
 * none was missed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { RedisStore } from '../../src/stores/redis.js';
import type { ScheduleView } from '../../src/server/schedules/types.js';
import { redisSkip, redisUrl, uniqueName } from '../setup/serviceUrls.js';
import { startServer, startWorker, writeProject, type Child } from './cluster.js';

const skip = redisSkip();

describe.skipIf(Boolean(skip))(
  `schedules: 2 servers + 2 workers as processes${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const children: Child[] = [];
    let project = '';
    afterAll(async () => {
      for (const child of children) child.process.kill('SIGKILL');
      if (project) rmSync(project, { recursive: true, force: true });
    });

    it('runs a 2 s schedule once per tick for 20 s', async () => {
      const queue = redisUrl()!;
      const prefix = uniqueName('sched');
      const id = uniqueName('every2s');
      project = writeProject();
      appendFileSync(
        path.join(project, 'colloquy.yaml'),
        `\nschedules:\n  ${id}:\n    every: 2s\n    agency: echo\n    message: tick\n`,
      );
      process.env.COLLOQUY_TEST_MODEL_DELAY_MS = '0';
      // Workers first, so that no tick falls while none runs.
      children.push(
        ...(await Promise.all([0, 1].map(() => startWorker(project, queue, queue, prefix)))),
      );
      const servers = await Promise.all(
        [0, 1].map(() => startServer(project, queue, queue, prefix)),
      );
      children.push(...servers);
      const started = Date.now();
      // sleep-ok: the scenario is 20 s of a 2 s schedule; ticks are counted over that window.
      await sleep(20_000);
      const listed = (await (await fetch(`${servers[0]!.url}/schedules`)).json()) as {
        schedules: ScheduleView[];
      };
      const status = listed.schedules.find((s) => s.id === id)!.status;
      const removed = await fetch(`${servers[1]!.url}/schedules/${id}`, { method: 'DELETE' });
      expect(removed.status).toBe(200);
      const elapsed = Date.now() - started;

      const redis = new Redis(queue);
      const store = new RedisStore({ url: queue });
      try {
        const marks = await redis.keys(`${prefix}:q:sched:${id}:tick:*`);
        // Each handled tick's run ends with the agent's answer in its chat.
        const answered = async () => {
          const chats = new Set<string>();
          for (const thread of await store.listThreads())
            if (thread.chatId?.startsWith(`chat_sched_${id}_`) && thread.version >= 2)
              chats.add(thread.chatId);
          return chats;
        };
        let chats = await answered();
        for (let i = 0; i < 150 && chats.size < marks.length; i++) {
          await sleep(100);
          chats = await answered();
        }
        console.log(
          `must-show 4 (processes): ${elapsed} ms, status before removal: ticks ${status.ticks}, runs ${status.runs}, missed ${status.missed}; ticks handled ${marks.length}, chats answered ${chats.size}`,
        );
        expect(status.missed).toBe(0);
        expect(status.runs).toBe(status.ticks);
        expect(status.ticks).toBeGreaterThanOrEqual(9);
        expect(marks.length).toBeLessThanOrEqual(12);
        expect(chats.size).toBe(marks.length);
        expect(marks.length - status.ticks).toBeLessThanOrEqual(1); // a tick between read and removal
      } finally {
        redis.disconnect();
        await store.close();
      }
    }, 120_000);
  },
);
