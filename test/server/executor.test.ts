import { describe, expect, it, vi } from 'vitest';
import type { AgencyStreamEvent } from '../../src/agency/events.js';
import type { AgencyResponse } from '../../src/agency/result.js';
import { createApp } from '../../src/server/app.js';
import { inProcessExecutor, type Executor } from '../../src/server/executor.js';
import { createRegistry } from '../../src/server/registry.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { echoAgency, type DelayedModel } from './helpers.js';

const response = (chatId: string): AgencyResponse => ({
  finalOutput: 'from the executor',
  chatId,
  lastAgent: 'Front',
  newItems: [],
  usage: { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
});

/** An executor that records what the routes asked of it and runs nothing. */
function recordingExecutor() {
  const calls: Array<{ kind: string; agency: string; message: unknown; chatId?: string }> = [];
  const executor: Executor = {
    calls: {
      async getResponse(agency, message, options) {
        calls.push({
          kind: 'json',
          agency,
          message,
          ...(options.chatId ? { chatId: options.chatId } : {}),
        });
        return response(options.chatId!);
      },
      async *getResponseStream(agency, message, options): AsyncGenerator<AgencyStreamEvent> {
        calls.push({ kind: 'stream', agency, message });
        yield { type: 'run_completed', result: response(options.chatId!) };
      },
      async resume(agency, state) {
        calls.push({ kind: 'resume', agency, message: state });
        return response('c-resumed');
      },
      async cancel(agency, chatId) {
        calls.push({ kind: 'cancel', agency, message: '', chatId });
        return 1;
      },
    },
    runs: {
      start: async (name) => {
        calls.push({ kind: 'run', agency: name, message: '' });
        return { runId: 'r1', ensemble: name, status: 'running', turnCount: 0 };
      },
      resume: async () => {
        throw new Error('not used');
      },
      cancel: async () => null,
      state: async () => null,
      async *follow() {},
      close: async () => undefined,
    },
    close: async () => undefined,
  };
  return { executor, calls };
}

describe('the execution seam', () => {
  it('routes send agency calls, streams and runs to the given executor', async () => {
    const { executor, calls } = recordingExecutor();
    const app = createApp({
      registry: createRegistry({ agencies: [echoAgency('echo')] }),
      executor,
    });
    const json = await app.request('/agencies/echo/responses', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi', chatId: 'c1' }),
    });
    expect(((await json.json()) as { finalOutput: string }).finalOutput).toBe('from the executor');
    const stream = await app.request('/agencies/echo/responses/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'streamed' }),
    });
    expect(await stream.text()).toContain('event: run_completed');
    const completion = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'openai' }] }),
    });
    expect(((await completion.json()) as any).choices[0].message.content).toBe('from the executor');
    const run = await app.request('/ensembles/any/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(run.status).toBe(202);
    expect(calls).toEqual([
      { kind: 'json', agency: 'echo', message: 'hi', chatId: 'c1' },
      { kind: 'stream', agency: 'echo', message: 'streamed' },
      expect.objectContaining({ kind: 'json', agency: 'echo', message: 'openai' }),
      { kind: 'run', agency: 'any', message: '' },
    ]);
  });

  it('/v1/responses, /resume and DELETE .../calls go to the executor as well', async () => {
    const { executor, calls } = recordingExecutor();
    const app = createApp({
      registry: createRegistry({ agencies: [echoAgency('echo')] }),
      executor,
    });
    const request = (path: string, body: unknown, method = 'POST') =>
      app.request(path, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const responses = await request('/v1/responses', { model: 'echo', input: 'via responses' });
    expect(((await responses.json()) as any).output[0].content[0].text).toBe('from the executor');
    const streamed = await request('/v1/responses', {
      model: 'echo',
      input: 'streamed responses',
      stream: true,
    });
    expect(await streamed.text()).toContain('event: response.completed');
    const state = JSON.stringify({
      format: 'colloquy-pending-call',
      version: 1,
      chatId: 'c9',
      agent: 'Front',
      runId: 'run_1',
      state: '{}',
    });
    const resumed = await request('/agencies/echo/resume', { state, approve: true });
    expect(resumed.status).toBe(200);
    const cancelled = await request('/agencies/echo/chats/c9/calls', undefined, 'DELETE');
    expect(await cancelled.json()).toEqual({ chatId: 'c9', cancelled: 1 });
    expect(calls).toEqual([
      expect.objectContaining({ kind: 'json', agency: 'echo', message: 'via responses' }),
      { kind: 'stream', agency: 'echo', message: 'streamed responses' },
      { kind: 'resume', agency: 'echo', message: state },
      { kind: 'cancel', agency: 'echo', message: '', chatId: 'c9' },
    ]);
  });

  it('DELETE .../calls 404s an unknown agency and 400s a bad chat id', async () => {
    const { executor, calls } = recordingExecutor();
    const app = createApp({
      registry: createRegistry({ agencies: [echoAgency('echo')] }),
      executor,
    });
    expect((await app.request('/agencies/nope/chats/c1/calls', { method: 'DELETE' })).status).toBe(
      404,
    );
    const bad = await app.request(`/agencies/echo/chats/${'x'.repeat(300)}/calls`, {
      method: 'DELETE',
    });
    expect(bad.status).toBe(400);
    expect(calls).toEqual([]);
  });

  it('the in-process executor cancels the calls of a chat, and only those', async () => {
    const agency = echoAgency('echo', new MemoryStore(), 5_000);
    const helper = agency.runtimeAgent('Helper').model as DelayedModel;
    let inHelper = 0;
    const answer = helper.getResponse.bind(helper);
    helper.getResponse = (request) => ((inHelper += 1), answer(request));
    const registry = createRegistry({ agencies: [agency] });
    const executor = inProcessExecutor(registry);
    const slow = executor.calls.getResponse('echo', 'slow', { chatId: 'c-cancel' });
    const other = executor.calls.getResponse('echo', 'other', { chatId: 'c-other' });
    const streamed = (async () => {
      const events: string[] = [];
      try {
        for await (const event of executor.calls.getResponseStream('echo', 's', {
          chatId: 'c-cancel',
        }))
          events.push(event.type);
      } catch (error) {
        events.push(`threw ${(error as Error).message}`);
      }
      return events;
    })();
    // Both chats' first calls are inside the helper's 5 s model call; the stream waits its turn.
    const running = () => expect(inHelper, 'calls inside the helper model').toBe(2);
    await vi.waitFor(running, { timeout: 5_000 });
    expect(await executor.calls.cancel('echo', 'c-cancel', 'stop now')).toBe(2);
    await expect(slow).rejects.toMatchObject({ code: 'ABORTED', message: 'stop now' });
    expect((await streamed).join(' ')).toMatch(/error|threw/);
    expect(await executor.calls.cancel('echo', 'c-cancel')).toBe(0);
    expect(await executor.calls.cancel('echo', 'c-other')).toBe(1);
    await expect(other).rejects.toThrow();
    await expect(executor.calls.cancel('missing', 'c1')).rejects.toThrow(/Agency "missing"/);
    await registry.close();
  });

  it('an unknown agency is a 404 before the executor is asked', async () => {
    const { executor, calls } = recordingExecutor();
    const app = createApp({ registry: createRegistry({}), executor });
    const res = await app.request('/agencies/nope/responses', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(res.status).toBe(404);
    expect(calls).toEqual([]);
  });

  it('the in-process executor runs the registry agency and 404s an unknown one', async () => {
    const registry = createRegistry({ agencies: [echoAgency('echo')] });
    const executor = inProcessExecutor(registry);
    const result = await executor.calls.getResponse('echo', 'hello', { chatId: 'c2' });
    expect(result.chatId).toBe('c2');
    expect(typeof result.finalOutput).toBe('string');
    expect(() => executor.calls.getResponse('missing', 'x', {})).toThrow(/Agency "missing"/);
    expect(executor.runs).toBe(registry.runs);
    await registry.close();
  });
});
