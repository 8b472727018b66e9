/**
 * A loopback server speaking the few OpenAI endpoints a vector store sync needs: list and create
 * vector stores, upload and delete files, attach and detach files. Never the real API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';

export interface FakeOpenAI {
  client: OpenAI;
  /** `METHOD /path` of every request, in order. */
  requests: string[];
  stores: Map<string, { name: string; fileIds: Set<string> }>;
  files: Map<string, { filename: string; text: string }>;
  close: () => Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Starts the server on 127.0.0.1 and an `openai` client pointed at it. */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: string[] = [];
  const stores = new Map<string, { name: string; fileIds: Set<string> }>();
  const files = new Map<string, { filename: string; text: string }>();
  let next = 0;
  const send = (res: ServerResponse, status: number, json: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route = `${req.method} ${url.pathname}`;
    requests.push(route);
    const raw = await body(req);
    let m: RegExpExecArray | null;
    if (route === 'GET /v1/vector_stores') {
      const data = [...stores].map(([id, s]) => ({
        id,
        object: 'vector_store',
        name: s.name,
        created_at: 1,
        status: 'completed',
      }));
      return send(res, 200, {
        object: 'list',
        data,
        first_id: data[0]?.id ?? null,
        last_id: data.at(-1)?.id ?? null,
        has_more: false,
      });
    }
    if (route === 'POST /v1/vector_stores') {
      const id = `vs_${++next}`;
      stores.set(id, { name: JSON.parse(raw.toString()).name, fileIds: new Set() });
      return send(res, 200, {
        id,
        object: 'vector_store',
        name: stores.get(id)!.name,
        created_at: 1,
        status: 'completed',
      });
    }
    if ((m = /^GET \/v1\/vector_stores\/([^/]+)$/.exec(route))) {
      const store = stores.get(m[1]!);
      if (!store)
        return send(res, 404, {
          error: {
            message: `No vector store found with id '${m[1]}'.`,
            type: 'invalid_request_error',
          },
        });
      return send(res, 200, {
        id: m[1],
        object: 'vector_store',
        name: store.name,
        created_at: 1,
        status: 'completed',
      });
    }
    if (route === 'POST /v1/files') {
      const form = await new Response(raw, {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
      const file = form.get('file') as File;
      const id = `file_${++next}`;
      files.set(id, { filename: file.name, text: await file.text() });
      return send(res, 200, {
        id,
        object: 'file',
        filename: file.name,
        bytes: file.size,
        purpose: form.get('purpose'),
        created_at: 1,
        status: 'processed',
      });
    }
    if ((m = /^POST \/v1\/vector_stores\/([^/]+)\/files$/.exec(route))) {
      const store = stores.get(m[1]!);
      const { file_id } = JSON.parse(raw.toString());
      if (!store || !files.has(file_id))
        return send(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
      store.fileIds.add(file_id);
      return send(res, 200, {
        id: file_id,
        object: 'vector_store.file',
        vector_store_id: m[1],
        status: 'completed',
        created_at: 1,
        usage_bytes: 1,
        last_error: null,
      });
    }
    if ((m = /^DELETE \/v1\/vector_stores\/([^/]+)\/files\/([^/]+)$/.exec(route))) {
      const deleted = stores.get(m[1]!)?.fileIds.delete(m[2]!) ?? false;
      if (!deleted)
        return send(res, 404, {
          error: { message: 'No such file', type: 'invalid_request_error' },
        });
      return send(res, 200, { id: m[2], object: 'vector_store.file.deleted', deleted: true });
    }
    if ((m = /^DELETE \/v1\/files\/([^/]+)$/.exec(route))) {
      if (!files.delete(m[1]!))
        return send(res, 404, {
          error: { message: 'No such file', type: 'invalid_request_error' },
        });
      return send(res, 200, { id: m[1], object: 'file', deleted: true });
    }
    return send(res, 404, {
      error: { message: `unknown route ${route}`, type: 'invalid_request_error' },
    });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      send(res, 500, { error: { message: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new OpenAI({
    apiKey: 'test-key',
    baseURL: `http://127.0.0.1:${port}/v1`,
    maxRetries: 0,
  });
  return {
    client,
    requests,
    stores,
    files,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
