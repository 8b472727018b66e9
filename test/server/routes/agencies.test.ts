import { EventSource } from 'eventsource';
import { describe, expect, it } from 'vitest';
import type { AgencyStreamEvent } from '../../../src/agency/events.js';
import { allSseEvents, json, listen, post } from '../helpers.js';

describe('POST /agencies/:name/responses', () => {
  it('returns the getResponse result as JSON, and continues a chat by chatId', async () => {
    const server = await listen();
    const res = await post(`${server.url}/agencies/demo/responses`, {
      message: 'Write about tides',
      chatId: 'chat-json',
    });
    expect(res.status).toBe(200);
    const result = await json(res);
    expect(result).toMatchObject({
      chatId: 'chat-json',
      lastAgent: 'Coordinator',
      usage: { requests: 7 },
    });
    expect(result.finalOutput).toContain('Here is your brief on tides');
    expect(result.newItems.map((item: { agent: string }) => item.agent)).toContain('Editor');
    const again = await json(
      await post(`${server.url}/agencies/demo/responses`, {
        message: 'Now about waves',
        chatId: 'chat-json',
      }),
    );
    expect(again.finalOutput).toContain('brief on waves');
    const threads = await json(await fetch(`${server.url}/chats/chat-json/threads`));
    const user = threads.threads.find(
      (t: { threadId: string }) => t.threadId === 'chat-json__Coordinator__USER',
    );
    expect(user.version).toBeGreaterThanOrEqual(4);
  });

  it('makes a chat id when none is given', async () => {
    const server = await listen();
    const result = await json(
      await post(`${server.url}/agencies/demo/responses`, { message: 'hi' }),
    );
    expect(result.chatId).toMatch(/^chat_[0-9a-f-]{36}$/);
  });
});

describe('POST /agencies/:name/responses/stream', () => {
  it('streams the typed events, tagged with agent, caller and runId, ending with run_completed (raw fetch reader)', async () => {
    const server = await listen();
    const res = await post(`${server.url}/agencies/demo/responses/stream`, {
      message: 'hi',
      chatId: 'chat-sse',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-colloquy-chat-id')).toBe('chat-sse');
    const events = await allSseEvents(res);
    const parsed = events.map((e) => JSON.parse(e.data) as AgencyStreamEvent);
    expect(events.map((e) => e.event)).toEqual(parsed.map((e) => e.type));
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => String(i)));
    expect(parsed.at(-1)!.type).toBe('run_completed');
    // The first event names the background run the stream follows (also in a header).
    const runId = res.headers.get('x-colloquy-run-id');
    expect(runId).toMatch(/^callrun_/);
    expect(parsed[0]).toEqual({ type: 'run_started', runId, agency: 'demo', chatId: 'chat-sse' });
    const tagged = parsed
      .slice(1)
      .filter((e) => e.type !== 'run_completed' && e.type !== 'error') as Array<
      AgencyStreamEvent & { agent: string; callerAgent: string | null; runId: string }
    >;
    expect(tagged.length).toBe(parsed.length - 2);
    for (const event of tagged) {
      expect(typeof event.agent).toBe('string');
      expect(event.runId).toMatch(/^run_/);
      expect(event).toHaveProperty('callerAgent');
    }
    const starts = tagged
      .filter((e) => e.type === 'agent_run_started')
      .map((e) => [e.agent, e.callerAgent]);
    expect(starts).toEqual([
      ['Coordinator', null],
      ['Researcher', 'Coordinator'],
      ['Writer', 'Coordinator'],
      ['Editor', 'Writer'],
    ]);
    const done = parsed.at(-1) as Extract<AgencyStreamEvent, { type: 'run_completed' }>;
    expect(done.result.chatId).toBe('chat-sse');
    expect(done.result.finalOutput).toContain('brief on hi');
  });

  it('works with the eventsource client', async () => {
    const server = await listen();
    const source = new EventSource(`${server.url}/agencies/demo/responses/stream`, {
      fetch: (url, init) =>
        fetch(url, {
          ...init,
          method: 'POST',
          headers: { ...init?.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'tides' }),
        }),
    });
    const received: Array<{ type: string; agent?: string; runId?: string }> = [];
    const finished = new Promise<{ finalOutput: string }>((resolve, reject) => {
      for (const type of [
        'agent_run_started',
        'raw_model_stream_event',
        'run_item_stream_event',
        'agent_run_completed',
      ]) {
        source.addEventListener(type, (event) => received.push(JSON.parse(event.data)));
      }
      source.addEventListener('run_completed', (event) => {
        source.close();
        resolve(JSON.parse(event.data).result);
      });
      source.addEventListener('error', (event) => {
        source.close();
        reject(
          new Error(
            `eventsource error: ${(event as { message?: string }).message ?? JSON.stringify(event)}`,
          ),
        );
      });
    });
    const result = await finished;
    expect(result.finalOutput).toContain('brief on tides');
    expect(received.filter((e) => e.type === 'agent_run_completed').map((e) => e.agent)).toEqual([
      'Researcher',
      'Editor',
      'Writer',
      'Coordinator',
    ]);
    expect(received.every((e) => typeof e.agent === 'string' && e.runId?.startsWith('run_'))).toBe(
      true,
    );
  });

  it('sends an error event as the last event when the call fails', async () => {
    const server = await listen();
    const res = await post(`${server.url}/agencies/demo/responses/stream`, {
      message: 'hi',
      recipient: 'Coordinator',
      context: { a: 1 },
    });
    expect((await allSseEvents(res)).at(-1)!.event).toBe('run_completed');
    const bad = await post(`${server.url}/agencies/demo/responses/stream`, {
      message: 'hi',
      recipient: 'Writer',
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.path).toBe('recipient');
  });
});
