/**
 * The HTTP requests the OpenAPI tools make and the tool shapes they are built with, checked with
 * a recording fetch (no network): names without an operationId, path-level and cookie
 * parameters, headers, JSON bodies, clipping, and the errors for documents that cannot be read.
 */
import { describe, expect, it } from 'vitest';
import type { FunctionTool } from '@openai/agents-core';
import { openApiTools } from '../../src/tools/openApiTools.js';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function recordingFetch(reply: (sent: Sent) => Response = () => new Response('ok')) {
  const sent: Sent[] = [];
  const fake = (async (input: URL | string, init?: RequestInit) => {
    const request: Sent = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      ...(typeof init?.body === 'string' ? { body: init.body } : {}),
    };
    sent.push(request);
    return reply(request);
  }) as typeof fetch;
  return { sent, fetch: fake };
}

const document = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  servers: [{ url: 'https://shop.test/api/' }],
  paths: {
    '/items/{itemId}': {
      parameters: [{ name: 'itemId', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        parameters: [
          { name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'x-trace', in: 'header', schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
      put: {
        operationId: 'replace item!',
        summary: 'Replace an item',
        description: 'Overwrites every field.',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

async function invoke(tool: FunctionTool<any, any, any>, args: unknown): Promise<string> {
  return String(await tool.invoke({} as never, JSON.stringify(args)));
}

describe('openApiTools requests', () => {
  it('names tools from the method and path when there is no operationId, and cleans names', async () => {
    const tools = await openApiTools(document, { fetch: recordingFetch().fetch });
    expect(tools.map((t) => t.name)).toEqual(['get_items_itemId', 'replace_item']);
    const [get, put] = tools;
    expect(get!.description).toBe('GET /items/{itemId}');
    expect(put!.description).toBe('Replace an item\n\nOverwrites every field.');
    const getSchema = get!.parameters as {
      properties: Record<string, unknown>;
      required: string[];
    };
    // The path-level parameter is merged in; the cookie parameter is left out.
    expect(Object.keys(getSchema.properties).sort()).toEqual(['fields', 'itemId', 'x-trace']);
    expect(getSchema.required).toEqual(['itemId']);
    const putSchema = put!.parameters as { required: string[] };
    expect(putSchema.required).toEqual(['itemId', 'body']);
  });

  it('puts path, query and header parameters where they belong, and sends JSON bodies', async () => {
    const { sent, fetch } = recordingFetch();
    const [get, put] = await openApiTools(document, {
      fetch,
      headers: { authorization: 'Bearer k' },
    });
    await invoke(get!, { itemId: 'a/b', fields: ['name', 'price'], 'x-trace': 't1' });
    await invoke(put!, { itemId: '7', body: { name: 'lamp' } });
    expect(sent[0]).toMatchObject({
      url: 'https://shop.test/api/items/a%2Fb?fields=%5B%22name%22%2C%22price%22%5D',
      method: 'GET',
      headers: { authorization: 'Bearer k', 'x-trace': 't1' },
    });
    expect(sent[0]!.body).toBeUndefined();
    expect(sent[1]).toMatchObject({
      url: 'https://shop.test/api/items/7',
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: '{"name":"lamp"}',
    });
  });

  it('clips long responses and reports HTTP errors as text, with the status and path', async () => {
    const long = recordingFetch(() => new Response('x'.repeat(50)));
    const [get] = await openApiTools(document, { fetch: long.fetch, maxResponseChars: 10 });
    expect(await invoke(get!, { itemId: '1' })).toBe(`${'x'.repeat(10)}… [40 more characters]`);
    const failing = recordingFetch(() => new Response('no such item', { status: 404 }));
    const [getMissing] = await openApiTools(document, { fetch: failing.fetch });
    expect(await invoke(getMissing!, { itemId: '9' })).toBe(
      'Error: HTTP 404 from GET /api/items/9: no such item',
    );
  });

  it('uses baseUrl over the servers entry', async () => {
    const { sent, fetch } = recordingFetch();
    const [get] = await openApiTools(document, { fetch, baseUrl: 'http://127.0.0.1:9/v2///' });
    await invoke(get!, { itemId: '1' });
    expect(sent[0]!.url).toBe('http://127.0.0.1:9/v2/items/1');
  });

  it('says which URL failed when the document cannot be downloaded', async () => {
    const { fetch } = recordingFetch(() => new Response('gone', { status: 410 }));
    await expect(openApiTools('https://docs.test/openapi.yaml', { fetch })).rejects.toThrow(
      'openApiTools: fetching https://docs.test/openapi.yaml gave HTTP 410',
    );
  });

  it('reads a YAML document by URL and resolves a relative server against it', async () => {
    const yaml = [
      'openapi: 3.0.0',
      'info: { title: T, version: "1" }',
      'servers: [{ url: /v1 }]',
      'paths:',
      '  /ping:',
      '    get:',
      '      operationId: ping',
      '      responses: { "200": { description: ok } }',
    ].join('\n');
    const calls = recordingFetch((sent) =>
      sent.url.endsWith('.yaml') ? new Response(yaml) : new Response('pong'),
    );
    const [ping] = await openApiTools('https://api.test/spec/openapi.yaml', {
      fetch: calls.fetch,
    });
    expect(await invoke(ping!, {})).toBe('pong');
    expect(calls.sent[1]!.url).toBe('https://api.test/v1/ping');
  });
});
