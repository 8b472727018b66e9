/**
 * The queued executor on the test Redis: `queueAgency` calls run on an in-process worker.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { queueAgency } from '../../src/queue/queueAgency.js';
import { createWorker } from '../../src/queue/worker.js';
import { createRegistry } from '../../src/server/registry.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { redisSkip, uniqueName } from '../setup/serviceUrls.js';
import { chatLines, kitAgencies, DelayedEcho, startKit, type Kit } from './kit.js';
const skip = redisSkip();

describe.skipIf(Boolean(skip))(`queueAgency on Redis${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.close();
    kit = undefined;
  });

  it('answers, streams, resumes an approval on another worker, and cancels a chat', async () => {
    kit = await startKit({ delay: (text) => (text.startsWith('hold') ? 5_000 : 0) });
    const office = queueAgency({ agency: 'office', client: kit.client });
    const echo = queueAgency({ agency: 'echo', client: kit.client });
    const chatId = uniqueName('office');
    const asked = await office.getResponse('tidy', { chatId });
    expect(asked.interruptions).toEqual([
      expect.objectContaining({ toolName: 'delete_reports', agent: 'Clerk' }),
    ]);
    // The worker that stopped for the approval goes away; another one resumes.
    await kit.workers[0]!.worker.close({ graceMs: 0 });
    await kit.addWorker();
    const resumed = await office.resume(asked.state!, { approve: true });
    expect(resumed.finalOutput).toBe('Front: Clerk: deleted 2020');
    expect(resumed.chatId).toBe(chatId);

    const types: string[] = [];
    for await (const event of echo.getResponseStream('streamed', { chatId: uniqueName('s') }))
      types.push(event.type);
    expect(types.at(-1)).toBe('run_completed');

    const held = uniqueName('held');
    const before = kit.workers[1]!.model.started;
    const call = echo.getResponse('hold this', { chatId: held });
    for (let i = 0; i < 100 && kit.workers[1]!.model.started === before; i++) await sleep(20);
    expect(await echo.cancel(held, 'no longer needed')).toBe(1);
    await expect(call).rejects.toMatchObject({ code: 'ABORTED', message: 'no longer needed' });
    expect(await chatLines(kit.store, held)).toEqual(['user: hold this']);
    await office.close(); // a shared client stays open
    expect(await echo.getResponse('still open', { chatId: held })).toMatchObject({
      finalOutput: 'echo: still open',
    });
  });

  it('a worker refuses a store other processes cannot see', () => {
    const store = new MemoryStore();
    const registry = createRegistry({ agencies: kitAgencies(store, new DelayedEcho(() => 0)) });
    expect(() => createWorker({ registry })).toThrow(
      /memory store is not shared between processes/,
    );
  });
});
