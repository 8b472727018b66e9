/**
 * The queued executor and `queueAgency`: the job data they build from call options, their HTTP
 * errors (404 before queuing, 503 QUEUE_UNAVAILABLE when Redis is unreachable); on a real Redis,
 * see queuedExecutor.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { callData, queuedExecutor, resumeData } from '../../src/queue/queuedExecutor.js';
import { toErrorResponse } from '../../src/server/errors.js';
import { createRegistry } from '../../src/server/registry.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { approvalAgency } from '../server/approvalAgency.js';

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
