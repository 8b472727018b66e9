/**
 * A small loopback HTTP server (127.0.0.1, port 0) that answers model requests from a list of
 * scripted replies, in one provider's wire format. Each protocol module supplies the encoder.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the server should make the model emit. */
export interface WireToolCall {
  name: string;
  args: Record<string, unknown>;
}

/** One scripted reply. */
export type WireReply =
  | { text: string }
  | { tools: WireToolCall[] }
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { hangMs: number };

/** Chooses a reply from the request body; `index` counts model requests from 0. */
export type WireResponder = (body: Record<string, any>, index: number) => WireReply;

/** A request the server received. */
export interface WireRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

/** Encodes replies in one protocol. */
export interface WireProtocol {
  name: string;
  /** The path of model requests, e.g. `/v1/chat/completions`. */
  path: string;
  /** A JSON body for a non-streamed reply. */
  json(reply: { text: string } | { tools: WireToolCall[] }, body: Record<string, any>): unknown;
  /** SSE frames (`event`/`data`) for a streamed reply. */
  sse(
    reply: { text: string } | { tools: WireToolCall[] },
    body: Record<string, any>,
  ): Array<{ event?: string; data: unknown }>;
  /** The body of an error reply. */
  error(status: number): unknown;
}

/** A running wire server. */
export interface WireServer {
  /** `http://127.0.0.1:PORT/v1`, the profile's base_url. */
  baseUrl: string;
  requests: WireRequest[];
  close(): Promise<void>;
}

let nextId = 0;
/** A process-wide unique id with a prefix (tool-call ids must be unique across agents). */
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}_${process.pid.toString(36)}${nextId.toString(36).padStart(4, '0')}`;
}

/** Splits text into several deltas so that streaming is observable. */
export function chunks(text: string, size = 6): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

async function readBody(request: http.IncomingMessage): Promise<Record<string, any>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, any>) : {};
}

/** Starts a server speaking `protocol` on 127.0.0.1 with an ephemeral port. */
export async function startWireServer(
  protocol: WireProtocol,
  replies: WireReply[] | WireResponder,
  options: { port?: number } = {},
): Promise<WireServer> {
  const requests: WireRequest[] = [];
  let modelCalls = 0;
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
      if (req.method !== 'POST' || path !== protocol.path) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${path}` } }));
        return;
      }
      const index = modelCalls++;
      const reply =
        typeof replies === 'function'
          ? replies(body, index)
          : (replies[Math.min(index, replies.length - 1)] as WireReply);
      if ('hangMs' in reply) {
        const timer = setTimeout(() => res.writeHead(200).end('{}'), reply.hangMs);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body ?? protocol.error(reply.status)));
        return;
      }
      if (body.stream === true) {
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
        for (const frame of protocol.sse(reply, body)) {
          const data = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
          res.write(`${frame.event ? `event: ${frame.event}\n` : ''}data: ${data}\n\n`);
        }
        res.end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(protocol.json(reply, body)));
    })().catch((error: unknown) => {
      res.writeHead(500).end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
