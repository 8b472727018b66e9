/**
 * Fault and attack tests of the OpenAPI tools on loopback servers (issue 25): a spec URL that
 * accepts the connection but never answers, a `$ref` cycle, path parameters chosen by a
 * prompt-injected model (`..`, `../../admin`), a tool call that hangs, and redirects to another
 * host with and without an allow-list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FunctionTool } from '@openai/agents-core';
import { afterEach, describe, expect, it } from 'vitest';
import { openApiTools } from '../../src/tools/openApiTools.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback server answering with `handler` (which may never answer); resolves its base URL. */
async function serve(
  handler: http.RequestListener,
  host = '127.0.0.1',
): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, seen };
}

const never: http.RequestListener = () => undefined;

function spec(baseUrl: string, paths: Record<string, unknown>, extra: object = {}) {
  return {
    openapi: '3.0.3',
    info: { title: 'Notes', version: '1' },
    servers: [{ url: baseUrl }],
    paths,
    ...extra,
  };
}

const op = (operationId: string, parameters: unknown[] = []) => ({
  get: { operationId, parameters, responses: { '200': { description: 'ok' } } },
});
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

async function invoke(tool: FunctionTool<any, any, any>, args: unknown): Promise<string> {
  return String(await tool.invoke({} as never, JSON.stringify(args)));
}

describe('openApiTools against hostile servers', () => {
  it('times out a spec URL that accepts the connection but never answers, naming the URL', async () => {
    const { url } = await serve(never);
    const started = Date.now();
    const loading = openApiTools(`${url}/spec.json`, { timeoutMs: 300 });
    await expect(loading).rejects.toThrow(`${url}/spec.json did not answer within 300 ms`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('times out a tool call to an API that never answers, and says so to the model', async () => {
    const { url } = await serve(never);
    const [getNote] = await openApiTools(spec(url, { '/notes': op('listNotes') }), {
      timeoutMs: 300,
    });
    expect(await invoke(getNote!, {})).toContain(`${url}/notes did not answer within 300 ms`);
  });

  it('refuses a $ref cycle at load, naming the $ref', async () => {
    const cyclic = spec(
      'http://127.0.0.1:9/',
      {
        '/nodes': {
          post: {
            operationId: 'addNode',
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
      {
        components: {
          schemas: {
            Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } },
          },
        },
      },
    );
    await expect(openApiTools(cyclic)).rejects.toThrow(
      /\$ref cycle at #\/components\/schemas\/Node\/properties\/child/,
    );
  });

  it('keeps model-chosen path parameters inside their segment on a real server', async () => {
    const api = await serve((_req, res) => res.end('answered'));
    const tools = await openApiTools(
      spec(`${api.url}/api`, {
        '/users/{id}/notes': op('userNotes', [idParam]),
        '/notes': op('allNotes'),
        '/admin': op('admin'),
      }),
    );
    const userNotes = tools.find((t) => t.name === 'userNotes')!;
    for (const id of ['..', '.', '../../admin', '..\\..\\admin', '%2e%2e', 'x/../../admin', '']) {
      expect(await invoke(userNotes, { id }), id).toMatch(/Refused: path parameter "id"/);
    }
    expect(api.seen).toEqual([]);
    expect(await invoke(userNotes, { id: 'ann/b c' })).toBe('answered');
    expect(api.seen).toEqual(['GET /api/users/ann%2Fb%20c/notes']);
  });

  it('follows a redirect to another host without an allow-list, and refuses it with one', async () => {
    const other = await serve(
      (_req, res) => res.end(JSON.stringify(spec('http://127.0.0.2:9/', { '/n': op('n') }))),
      '127.0.0.2',
    );
    const home = await serve((_req, res) => {
      res.writeHead(302, { location: `${other.url}/real.json` }).end();
    });
    const followed = await openApiTools(`${home.url}/spec.json`, { timeoutMs: 2_000 });
    expect(followed.map((t) => t.name)).toEqual(['n']);
    const hostOfHome = new URL(home.url).host;
    await expect(
      openApiTools(`${home.url}/spec.json`, { allowedHosts: [hostOfHome] }),
    ).rejects.toThrow(`host "${new URL(other.url).host}"`);
    expect(other.seen).toEqual(['GET /real.json']); // the refused hop was never requested
  });

  it('refuses an external $ref to a host off the allow-list before the parser fetches it', async () => {
    const other = await serve((_req, res) => res.end('{"type":"object"}'), '127.0.0.2');
    const api = await serve((_req, res) => res.end('ok'));
    const document = spec(api.url, {
      '/n': {
        post: {
          operationId: 'n',
          requestBody: {
            content: { 'application/json': { schema: { $ref: `${other.url}/schema.json` } } },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
    });
    await expect(openApiTools(document, { allowedHosts: [new URL(api.url).host] })).rejects.toThrow(
      /the \$ref "http:\/\/127\.0\.0\.2:\d+\/schema\.json" at #\/paths\/~1n\/post/,
    );
    expect(other.seen).toEqual([]);
  });

  it('refuses a base URL or a tool call redirect off the allow-list', async () => {
    const other = await serve((_req, res) => res.end('secret'), '127.0.0.2');
    const api = await serve((_req, res) => {
      res.writeHead(307, { location: `${other.url}/steal` }).end();
    });
    const allowedHosts = [new URL(api.url).host];
    await expect(
      openApiTools(spec(other.url, { '/n': op('n') }), { allowedHosts }),
    ).rejects.toThrow(/the base URL: host "127\.0\.0\.2:\d+"/);
    const [n] = await openApiTools(spec(api.url, { '/n': op('n') }), { allowedHosts });
    expect(await invoke(n!, {})).toMatch(/not in allowedHosts/);
    expect(other.seen).toEqual([]);
  });
});
