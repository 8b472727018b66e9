/**
 * On the test Redis: what the worker used to drop silently is logged with the worker's id and
 * the channel: BullMQ worker errors and cancel messages that are not JSON.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { redisSkip } from '../setup/serviceUrls.js';
import { captureLogs, type CapturedLogs } from '../support/captureLogs.js';
import { startKit, type Kit } from './kit.js';
const skip = redisSkip();

describe.skipIf(Boolean(skip))(`worker logs on Redis${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let kit: Kit | undefined;
  let logs: CapturedLogs | undefined;
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
    logs?.restore();
  });

  it('logs BullMQ worker errors and malformed cancel messages with the worker id', async () => {
    logs = captureLogs();
    kit = await startKit();
    const { worker } = kit.workers[0]!;
    worker.worker.emit('error', new Error('lock renewal failed'));
    const publisher = new Redis(kit.queue);
    onTestFinished(() => void publisher.quit());
    // Published until heard: the worker subscribes to cancellations as it starts.
    await vi.waitFor(
      async () => {
        await publisher.publish(`${kit!.prefix}:q:cancel`, 'not json');
        expect(logs!.lines.some((line) => String(line.msg).includes('not JSON'))).toBe(true);
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(logs.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          component: 'worker',
          worker: worker.id,
          err: expect.stringContaining('lock renewal failed'),
        }),
        expect.objectContaining({
          component: 'worker',
          worker: worker.id,
          msg: expect.stringContaining('not JSON'),
        }),
      ]),
    );
  });
});
