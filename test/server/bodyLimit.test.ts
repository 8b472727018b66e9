/**
 * The body limit over a real socket: a body whose Content-Length is over the limit is refused
 * from its headers, a chunked body (no Content-Length) is counted as it is read, and bodies under
 * the limit reach the route either way.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen } from './helpers.js';

/** POSTs `parts` to `url`: with a Content-Length, or chunked (one write per part). */
function send(
  url: URL,
  parts: string[],
  chunked: boolean,
): Promise<{ status: number; body: string }> {
  const length = Buffer.byteLength(parts.join(''));
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': length }),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
}

describe('request body limit', () => {
  it('refuses bodies over the limit with 413, with or without Content-Length, and serves smaller ones', async () => {
    const server = await listen({ agencies: [], demo: true }, { maxBodyBytes: 2048 });
    const url = new URL('/agencies/demo/responses', server.url);
    const big = JSON.stringify({ message: 'x'.repeat(4096) });
    const halves = [big.slice(0, 2000), big.slice(2000)];
    for (const chunked of [false, true]) {
      const refused = await send(url, halves, chunked);
      expect(refused.status, `chunked: ${chunked}`).toBe(413);
      expect(JSON.parse(refused.body).error.code).toBe('PAYLOAD_TOO_LARGE');
      const small = JSON.stringify({ message: 'hi', chatId: `limit-${chunked}` });
      const served = await send(url, [small.slice(0, 10), small.slice(10)], chunked);
      expect(served.status, served.body).toBe(200);
      expect(JSON.parse(served.body).chatId).toBe(`limit-${chunked}`);
    }
  });
});
