/** openApiTools against a loopback API: one tool per operation, and calls that reach the API. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { openApiTools } from '../../src/tools/openApiTools.js';

const seen: Array<{ method: string; url: string; body: string; key: string | undefined }> = [];
let server: Server;
let base = '';
const dir = mkdtempSync(join(tmpdir(), 'colloquy-openapi-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        body,
        key: req.headers['x-api-key'] as string | undefined,
      });
      if (req.url === '/openapi.json') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(spec('/')));
      } else if (req.url?.startsWith('/pets/404')) {
        res.statusCode = 404;
        res.end('no such pet');
      } else if (req.url?.startsWith('/pets/')) {
        res.end(JSON.stringify({ id: req.url.split('/')[2]!.split('?')[0], name: 'Rex' }));
      } else {
        res.statusCode = 201;
        res.end(`created ${body}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function spec(serverUrl: string) {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    servers: [{ url: serverUrl }],
    paths: {
      '/pets/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getPet',
          summary: 'Get a pet by id.',
          parameters: [{ name: 'verbose', in: 'query', schema: { type: 'boolean' } }],
          responses: { '200': { description: 'ok' } },
        },
      },
      '/pets': {
        post: {
          summary: 'Create a pet.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
          responses: { '201': { description: 'created' } },
        },
      },
    },
    components: {
      schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
    },
  };
}

describe('openApiTools', () => {
  it('makes one tool per operation, with parameters and the resolved body schema', async () => {
    const tools = await openApiTools(spec(base));
    expect(tools.map((t) => t.name)).toEqual(['getPet', 'post_pets']);
    const [getPet, create] = tools;
    expect(getPet!.description).toBe('Get a pet by id.');
    expect(getPet!.parameters).toMatchObject({
      properties: { petId: { type: 'string' }, verbose: { type: 'boolean' } },
      required: ['petId'],
    });
    expect(create!.parameters).toMatchObject({
      properties: { body: { type: 'object', properties: { name: { type: 'string' } } } },
      required: ['body'],
    });
  });

  it('calls the API from an agent, with headers, and reports HTTP errors as text', async () => {
    const tools = await openApiTools(spec(base), { headers: { 'x-api-key': 'k1' } });
    const agent = new Agent({
      name: 'Vet',
      instructions: 'v',
      tools,
      model: new ScriptedModel([
        {
          tools: [
            { tool: 'getPet', args: { petId: '7', verbose: true } },
            { tool: 'post_pets', args: { body: { name: 'Tom' } } },
            { tool: 'getPet', args: { petId: '404' } },
          ],
        },
        (request) => toolOutputsSinceUser(request).join(' | '),
      ]),
    });
    const agency = new Agency({
      entryPoints: [agent],
      threads: new ThreadManager({ store: new MemoryStore() }),
    });
    const { finalOutput } = await agency.getResponse('go');
    expect(finalOutput).toBe(
      '{"id":"7","name":"Rex"} | created {"name":"Tom"} | Error: HTTP 404 from GET /pets/404: no such pet',
    );
    expect(seen.find((r) => r.url === '/pets/7?verbose=true')).toMatchObject({
      method: 'GET',
      key: 'k1',
    });
    expect(seen.find((r) => r.method === 'POST')).toMatchObject({
      url: '/pets',
      body: '{"name":"Tom"}',
    });
  });

  it('reads the document from a file and from a URL (relative server resolved)', async () => {
    const path = join(dir, 'pets.json');
    writeFileSync(path, JSON.stringify(spec(base)));
    expect((await openApiTools(path)).map((t) => t.name)).toEqual(['getPet', 'post_pets']);
    const fromUrl = await openApiTools(`${base}/openapi.json`);
    const result = await (
      fromUrl[0] as { invoke: (c: unknown, a: string) => Promise<string> }
    ).invoke({}, JSON.stringify({ petId: '9' }));
    expect(result).toBe('{"id":"9","name":"Rex"}');
  });

  it('refuses invalid documents, Swagger 2 and documents without a server', async () => {
    await expect(openApiTools({ openapi: '3.0.0', paths: {} })).rejects.toThrow(
      /not a valid OpenAPI document/,
    );
    await expect(
      openApiTools({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {} }),
    ).rejects.toThrow(/only OpenAPI 3/);
    const noServer = { ...spec(base), servers: [] };
    await expect(openApiTools(noServer)).rejects.toThrow(/no absolute server URL/);
  });
});
