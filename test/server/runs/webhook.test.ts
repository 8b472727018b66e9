// Webhooks of runs: the outcome POSTed to a loopback receiver that fails twice then accepts, signed
// with the HMAC of the exact body, each failure logged with the run id and attempt, and the secret
// never logged or echoed.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '../../support/captureLogs.js';
import {
  deliverWebhook,
  webhookSignature,
  type Webhook,
} from '../../../src/server/runs/webhook.js';
import { echoAgency, json, listen, post, slowStepsEnsembles } from '../helpers.js';

const SECRET = 'whsec_0123456789abcdef-very-secret';

interface Received {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A loopback receiver answering `statuses` in turn (then 200), recording every request. */
async function receiver(statuses: number[]): Promise<{ url: string; got: Received[] }> {
  const got: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      got.push({ body, headers: request.headers });
      response.statusCode = statuses[got.length - 1] ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?k=1`, got };
}

const servers: Server[] = [];
let logs: CapturedLogs | undefined;
/** The log lines from now on (restored after the test). */
const capture = () => (logs = captureLogs()).lines;
afterEach(async () => {
  logs?.restore();
  logs = undefined;
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

function verified(received: Received): boolean {
  const expected = `sha256=${createHmac('sha256', SECRET).update(received.body).digest('hex')}`;
  return received.headers['x-colloquy-signature'] === expected;
}

async function until<T>(read: () => T, ok: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (!ok(read())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return read();
}

describe('deliverWebhook', () => {
  it('retries a receiver that fails twice, then delivers the same signed body', async () => {
    const lines = capture();
    const { url, got } = await receiver([500, 503]);
    const hook: Webhook = { url, secret: SECRET };
    const delivery = await deliverWebhook(
      hook,
      'callrun_1',
      { type: 'run.completed', n: 1 },
      {
        minDelayMs: 10,
        maxDelayMs: 40,
      },
    );
    expect(delivery).toEqual({ delivered: true, attempts: 3, status: 200 });
    expect(got).toHaveLength(3);
    expect(got.every(verified)).toBe(true);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    expect(new Set(got.map((r) => r.headers['x-colloquy-delivery'])).size).toBe(1);
    expect(JSON.parse(got[0]!.body)).toEqual({ type: 'run.completed', n: 1 });
    expect(got[0]!.headers['x-colloquy-run-id']).toBe('callrun_1');
    // Each failure logged with the run and the attempt; the secret and the query nowhere.
    expect(lines.map((l) => [l.runId, l.attempt, l.status])).toEqual([
      ['callrun_1', 1, 500],
      ['callrun_1', 2, 503],
    ]);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(JSON.stringify(lines)).not.toContain('k=1');
  });

  it('stops after the bounded attempts, and at once on a final 4xx', async () => {
    const lines = capture();
    const down = await receiver([500, 500, 500, 500]);
    const failed = await deliverWebhook(
      { url: down.url, secret: SECRET },
      'r2',
      {},
      {
        attempts: 3,
        minDelayMs: 5,
      },
    );
    expect(failed).toEqual({ delivered: false, attempts: 3, status: 500 });
    expect(down.got).toHaveLength(3);
    const gone = await receiver([410]);
    expect(await deliverWebhook({ url: gone.url, secret: SECRET }, 'r3', {})).toMatchObject({
      delivered: false,
      attempts: 1,
      status: 410,
    });
    expect(lines.some((l) => l.level === 50 && l.runId === 'r2')).toBe(true);
  });

  it('signs with HMAC-SHA256 of the body', () => {
    expect(webhookSignature('{"a":1}', 'k')).toBe(
      `sha256=${createHmac('sha256', 'k').update('{"a":1}').digest('hex')}`,
    );
  });
});

describe('runs with a webhook', () => {
  it('POSTs a background call outcome, signed, retried until accepted', async () => {
    capture();
    const { url, got } = await receiver([500, 502]);
    const server = await listen({ agencies: [echoAgency('echo')], demo: false });
    const started = await post(`${server.url}/agencies/echo/runs`, {
      message: 'hello',
      webhook: { url, secret: SECRET },
    });
    expect(started.status).toBe(202);
    const text = await started.text();
    expect(text).not.toContain(SECRET);
    const { runId } = JSON.parse(text) as { runId: string };
    // p-retry's default backoff starts at 1 s: two retries take about 3 s.
    await until(
      () => got.length,
      (n) => n >= 3,
    );
    expect(got.every(verified)).toBe(true);
    const outcome = JSON.parse(got[2]!.body) as Record<string, any>;
    expect(outcome).toMatchObject({ type: 'run.completed', runId, status: 'completed' });
    expect(outcome.result.finalOutput).toContain('hello');
    expect(got[2]!.body).not.toContain(SECRET);
  });

  it('POSTs an ensemble run outcome', async () => {
    const { url, got } = await receiver([]);
    const server = await listen({ ensembles: slowStepsEnsembles(), demo: false });
    process.env.SLOW_MS = '0'; // the slow step answers at once
    const started = await post(`${server.url}/ensembles/steps/runs`, {
      webhook: { url, secret: SECRET },
    });
    expect(started.status).toBe(202);
    const { runId } = (await json(started)) as { runId: string };
    await until(
      () => got.length,
      (n) => n >= 1,
    );
    delete process.env.SLOW_MS;
    expect(verified(got[0]!)).toBe(true);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ type: 'run.finished', runId });
  });

  it('refuses a bad webhook with the field named and the secret not echoed', async () => {
    const server = await listen({ agencies: [echoAgency('echo')], demo: false });
    const bad = await post(`${server.url}/agencies/echo/runs`, {
      message: 'x',
      webhook: { url: 'ftp://example.com/x', secret: SECRET },
    });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ error: { code: 'INVALID_BODY', path: 'webhook.url' } });
    const short = await post(`${server.url}/agencies/echo/runs`, {
      message: 'x',
      webhook: { url: 'http://127.0.0.1:1/x', secret: 'short-secret' },
    });
    const body = await short.text();
    expect(short.status).toBe(400);
    expect(body).toContain('webhook.secret');
    expect(body).not.toContain('short-secret');
  });
});
