import { SSEStreamingApi } from 'hono/streaming';
import { describe, expect, it } from 'vitest';
import { SseStream, sseText, type SseMessage } from '../../src/server/sseStream.js';

/** What Hono's `writeSSE` writes for `message`. */
async function honoText(message: SseMessage): Promise<string> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const api = new SSEStreamingApi(writable, readable);
  const reader = api.responseReadable.getReader();
  const read = reader.read();
  await api.writeSSE(message);
  return new TextDecoder().decode((await read).value);
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(body).text();
}

describe('sseText', () => {
  it('frames events exactly as Hono does', async () => {
    const messages: SseMessage[] = [
      { data: '{"a":1}' },
      { data: '[DONE]', id: '7' },
      { data: 'one\ntwo\r\nthree\rfour', event: 'message', id: '0' },
      { data: '', event: '' },
      { data: 'x', id: '' },
    ];
    for (const message of messages) expect(sseText(message)).toBe(await honoText(message));
  });

  it('refuses an event name or id with a line break, naming the field', () => {
    expect(() => sseText({ data: 'x', id: '1\n2' })).toThrow(/SSE id must not contain/);
    expect(() => sseText({ data: 'x', event: 'a\rb' })).toThrow(/SSE event must not contain/);
  });
});

describe('SseStream', () => {
  it('delivers writes in order and ends on close', async () => {
    const stream = new SseStream();
    const text = readAll(stream.body);
    await stream.writeSSE({ data: 'a', id: '0' });
    await stream.write('data: b\n\n');
    stream.close();
    await stream.write('dropped');
    expect(await text).toBe('data: a\nid: 0\n\ndata: b\n\n');
  });

  it('hands the writes of one turn to the reader as one chunk', async () => {
    const stream = new SseStream();
    const reader = stream.body.getReader();
    await stream.writeSSE({ data: 'a' });
    await stream.writeSSE({ data: 'b' });
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: a\n\ndata: b\n\n');
    await stream.write('c');
    stream.close(); // what is pending goes out before the end
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('c');
    expect((await reader.read()).done).toBe(true);
  });

  it('holds a writer back until the reader wants more', async () => {
    const stream = new SseStream();
    const reader = stream.body.getReader();
    await stream.write('one'); // queued at the end of this turn, filling the queue
    await new Promise((resolve) => setImmediate(resolve));
    let written = false;
    const pending = stream.write('two').then(() => (written = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(false);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('one');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('two');
    await pending; // the queue has room again
    expect(written).toBe(true);
  });

  it('tells its abort listeners when the reader cancels, and drops later writes', async () => {
    const stream = new SseStream();
    const calls: string[] = [];
    stream.onAbort(() => calls.push('abort'));
    await stream.write('one');
    await new Promise((resolve) => setImmediate(resolve));
    const blocked = stream.write('two'); // waiting for a reader
    await stream.body.cancel();
    await blocked; // released by the cancel
    await stream.write('three');
    expect(calls).toEqual(['abort']);
    expect(stream.ended).toBe(true);
  });
});
