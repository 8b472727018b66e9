/**
 * A streamed response on Node is written by the route itself (SocketSseStream): the response the
 * route hands Hono carries the status and the headers set before the route (run and chat ids) and
 * after it (frame headers), and the adapter writes nothing of its own (one head, one body).
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/stores/memory.js';
import { echoAgency, listen, post } from './helpers.js';

describe('a streamed response written by its route', () => {
  it('sends the headers of the route and of the middleware after it, then the events', async () => {
    const store = new MemoryStore();
    const server = await listen({ agencies: [echoAgency('echo', store)], store, demo: false });
    const res = await post(`${server.url}/v1/chat/completions`, {
      model: 'echo',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-colloquy-run-id')).toMatch(/^callrun_/);
    expect(res.headers.get('x-colloquy-chat-id')).toMatch(/^chat_/);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.has('x-hono-already-sent')).toBe(false);
    const text = await res.text();
    expect(text.startsWith('data: {')).toBe(true);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(text.match(/\[DONE\]/g)).toHaveLength(1);
  });
});
