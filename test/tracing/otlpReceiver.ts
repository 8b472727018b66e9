/**
 * A loopback OTLP/HTTP receiver for tests (and the observability docs' must-show): it accepts
 * JSON `POST /v1/traces` on 127.0.0.1 and keeps every span.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as received (the OTLP JSON form, flattened). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
  service: string;
  /** The span status as sent (`code` 2 = error). */
  status: { code?: number; message?: string };
}

/** A running receiver. */
export interface OtlpReceiver {
  readonly url: string;
  readonly spans: ReceivedSpan[];
  readonly requests: number;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}

function valueOf(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue;
}

function attributesOf(
  list: Array<{ key: string; value: OtlpValue }> = [],
): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));
}

/** Starts a receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  let requests = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      requests += 1;
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as {
        resourceSpans?: Array<{
          resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
          scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
        }>;
      };
      for (const resource of parsed.resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)['service.name'] ?? '');
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              traceId: String(span.traceId),
              spanId: String(span.spanId),
              parentSpanId: String(span.parentSpanId ?? ''),
              name: String(span.name),
              attributes: attributesOf(span.attributes as never),
              service,
              status: (span.status ?? {}) as { code?: number; message?: string },
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    get requests() {
      return requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Prints the received spans as a tree (used by the docs' must-show run). */
export function receivedTree(spans: ReceivedSpan[]): string[] {
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    const list = children.get(span.parentSpanId) ?? [];
    list.push(span);
    children.set(span.parentSpanId, list);
  }
  const ids = new Set(spans.map((span) => span.spanId));
  const lines: string[] = [];
  const visit = (span: ReceivedSpan, depth: number) => {
    const tokens = span.attributes['gen_ai.usage.input_tokens'];
    lines.push(
      `${'  '.repeat(depth)}${span.name}${tokens === undefined ? '' : ` (in ${tokens}, out ${span.attributes['gen_ai.usage.output_tokens']})`}`,
    );
    for (const child of children.get(span.spanId) ?? []) visit(child, depth + 1);
  };
  for (const root of spans.filter((span) => !ids.has(span.parentSpanId))) visit(root, 0);
  return lines;
}
