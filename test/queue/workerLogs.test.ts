/**
 * A failed publish of a call event does not fail the call, but it is logged with its channel
 * (it used to vanish).
 */
import { afterEach, expect, it } from 'vitest';
import type { Redis } from '../../src/queue/drivers.js';
import { publish } from '../../src/queue/worker.js';
import { captureLogs, type CapturedLogs } from '../support/captureLogs.js';

let logs: CapturedLogs | undefined;
afterEach(() => logs?.restore());

it('logs a publish that Redis refused, naming the channel, and does not throw', async () => {
  logs = captureLogs();
  const redis = {
    publish: () => Promise.reject(new Error('connection is closed')),
  } as unknown as Redis;
  await expect(publish(redis, 'q:call:42', { event: 'x' })).resolves.toBeUndefined();
  expect(logs.lines).toEqual([
    expect.objectContaining({
      component: 'worker',
      channel: 'q:call:42',
      msg: expect.stringContaining('could not publish'),
      err: expect.stringContaining('connection is closed'),
    }),
  ]);
});
