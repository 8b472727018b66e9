/**
 * The queued executor and `queueAgency`: the job data they build from call options, their HTTP
 * errors (404 before queuing, 503 QUEUE_UNAVAILABLE when Redis is unreachable), and, on the test
 * Redis with an in-process worker, approvals resumed and calls cancelled through the queue.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { queueAgency } from '../../src/queue/queueAgency.js';
import { createWorker } from '../../src/queue/worker.js';
import { callData, queuedExecutor, resumeData } from '../../src/queue/queuedExecutor.js';
import { toErrorResponse } from '../../src/server/errors.js';
import { createRegistry } from '../../src/server/registry.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { redisSkip, uniqueName } from '../setup/serviceUrls.js';
import { approvalAgency } from '../server/approvalAgency.js';
import { chatLines, kitAgencies, DelayedEcho, startKit, type Kit } from './kit.js';

const pending = (chatId: string) =>
  JSON.stringify({
    format: 'colloquy-pending-call',
    version: 1,
    chatId,
    agent: 'Front',
    runId: 'run_1',
    state: '{}',
  });

describe('job data', () => {
  it('carries every call option that can travel as JSON, and a new chat id when none is given', () => {
    const schema = { type: 'json_schema' as const, name: 'r', strict: false, schema: {} as never };
    expect(
      callData(
        'echo',
        'hi',
        {
          chatId: 'c1',
          recipient: 'Front',
          context: { user: 'u1' },
          additionalInstructions: 'be brief',
          maxTurns: 3,
          outputType: schema,
          attachments: [{ data: 'aGk=', mediaType: 'text/plain' }],
          signal: new AbortController().signal,
        },
        true,
      ),
    ).toEqual({
      agency: 'echo',
      chatId: 'c1',
      message: 'hi',
      stream: true,
      options: {
        chatId: 'c1',
        recipient: 'Front',
        context: { user: 'u1' },
        additionalInstructions: 'be brief',
        maxTurns: 3,
        outputType: schema,
        attachments: [{ data: 'aGk=', mediaType: 'text/plain' }],
      },
    });
    const fresh = callData('echo', 'hi', {}, false);
    expect(fresh.chatId).toMatch(/^chat_/);
    expect(Object.keys(fresh).sort()).toEqual(['agency', 'chatId', 'message', 'options', 'stream']);
    expect(fresh.options).toEqual({ chatId: fresh.chatId });
  });

  it('resumes in the pending call’s chat with the decisions given', () => {
    expect(resumeData('office', pending('c7'), { approve: ['call_1'], reject: true })).toEqual({
      agency: 'office',
      chatId: 'c7',
      message: '',
      stream: false,
      options: { chatId: 'c7' },
      resume: { state: pending('c7'), approve: ['call_1'], reject: true },
    });
    expect(() => resumeData('office', 'not json', {})).toThrow(/not JSON/);
  });
});

describe('the queued executor without Redis', () => {
  it('404s an unknown agency before queuing, 503s what cannot be queued', async () => {
    const registry = createRegistry({ agencies: [approvalAgency(new MemoryStore()).agency] });
    const executor = queuedExecutor(registry, {
      queue: 'redis://127.0.0.1:9',
      enqueueTimeoutMs: 500,
    });
    try {
      expect(() => executor.calls.getResponseStream('nope', 'hi', {})).toThrow(/Agency "nope"/);
      // Executors throw domain errors; the server's error handler gives them their status.
      const unknown = await executor.calls.getResponse('nope', 'hi', {}).catch((e: unknown) => e);
      expect(toErrorResponse(unknown)).toMatchObject({
        status: 404,
        body: { error: { code: 'AGENCY_NOT_FOUND' } },
      });
      for (const attempt of [
        executor.calls.getResponse('office', 'hi', { chatId: 'c1' }),
        executor.calls.resume('office', pending('c1'), { approve: true }),
        executor.calls.cancel('office', 'c1'),
      ]) {
        const error = await attempt.catch((caught: unknown) => caught);
        expect(toErrorResponse(error)).toMatchObject({
          status: 503,
          body: { error: { code: 'QUEUE_UNAVAILABLE' } },
        });
      }
    } finally {
      await executor.close();
      await registry.close();
    }
  });
});

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
