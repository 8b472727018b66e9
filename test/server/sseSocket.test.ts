import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ALREADY_SENT_HEADER, SocketSseStream } from '../../src/server/sseSocket.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/** A server whose every response is `handle`'s SocketSseStream; resolves with its URL. */
async function serve(handle: (stream: SocketSseStream) => void): Promise<string> {
  const server = http.createServer((_req, res) => {
    const response = new Response(null, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'x-run': 'r1',
        [ALREADY_SENT_HEADER]: 'true',
      },
    });
    handle(new SocketSseStream(res, () => response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('SocketSseStream', () => {
  it("sends the response's headers (not the adapter's marker) with the events, then ends", async () => {
    const url = await serve((stream) => {
      void (async () => {
        await stream.writeSSE({ data: '{"a":1}', id: '0' });
        await new Promise((resolve) => setImmediate(resolve)); // a later turn: a second write
        await stream.writeSSE({ data: '[DONE]' });
        stream.close();
      })();
    });
    const res = await fetch(url);
    expect(res.headers.get('x-run')).toBe('r1');
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.has(ALREADY_SENT_HEADER)).toBe(false);
    expect(await res.text()).toBe('data: {"a":1}\nid: 0\n\ndata: [DONE]\n\n');
  });

  it('tells its abort listeners when the client goes away, and drops later writes', async () => {
    let aborted!: () => void;
    const abortedOnce = new Promise<void>((resolve) => (aborted = resolve));
    let stream!: SocketSseStream;
    const url = await serve((s) => {
      stream = s;
      s.onAbort(aborted);
      void s.writeSSE({ data: 'first' });
    });
    const controller = new AbortController();
    const res = await fetch(url, { signal: controller.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    controller.abort();
    await abortedOnce;
    expect(stream.ended).toBe(true);
    await stream.write('ignored'); // no throw after the client left
  });
});
