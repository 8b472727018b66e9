/**
 * Serving a Hono app on a real Node server (`@hono/node-server`, loopback) and reading a
 * response's raw header lines, repeats kept: what the adapter writes, not what `app.request` sees.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { afterEach } from 'vitest';

/** A GET of `path`: the status and every value sent for one header name (lower case). */
export type HeaderValues = (
  path: string,
  name: string,
) => Promise<{ status: number; values: string[] }>;

/** Serves `makeApp()` once per test on first use (closed after each test) and reads headers from it. */
export function nodeHeaders(makeApp: () => Hono): HeaderValues {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });
  return async (path, name) => {
    server ??= serve({ fetch: makeApp().fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
    if (!server.listening) await new Promise((resolve) => server!.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path }, (res) => {
          res.resume();
          const lines = res.rawHeaders;
          const values = lines.filter(
            (_, i) => i % 2 === 1 && lines[i - 1]!.toLowerCase() === name,
          );
          res.on('end', () => resolve({ status: res.statusCode ?? 0, values }));
        })
        .on('error', reject);
    });
  };
}
