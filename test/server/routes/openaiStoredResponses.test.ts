/**
 * `GET /v1/responses/:id` (`responses.retrieve`): plain and streamed responses are kept in the
 * agency's store and retrieved, also by a new server on the same SQLite file (a restart).
 */
import path from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createFrontdesk } from '../../../examples/frontends/agency.js';
import { openStore } from '../../../src/stores/openStore.js';
import { ThreadManager } from '../../../src/threads/threadManager.js';
import { listen, tempDir } from '../helpers.js';

async function serveOn(file: string) {
  const store = await openStore(`sqlite:${file}`);
  const { agency } = createFrontdesk({ threads: new ThreadManager({ store }) });
  const server = await listen({ agencies: [agency], demo: false, store, ownsStore: true });
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  return { server, client };
}

describe('GET /v1/responses/:id', () => {
  it('retrieves plain and streamed responses, after a restart too', async () => {
    const file = path.join(tempDir(), 'colloquy.db');
    const first = await serveOn(file);
    const plain = await first.client.responses.create({ model: 'frontdesk', input: 'tides' });
    const stream = await first.client.responses.create({
      model: 'frontdesk',
      input: 'waves',
      stream: true,
    });
    let streamedId = '';
    for await (const event of stream) {
      if (event.type === 'response.completed') streamedId = event.response.id;
    }
    expect(streamedId).not.toBe('');
    const again = await first.client.responses.retrieve(plain.id);
    expect(again.output_text).toBe('Desk: Writer wrote about tides.');
    await first.server.close();
    await first.server.registry.close();

    const second = await serveOn(file);
    const retrieved = await second.client.responses.retrieve(plain.id);
    expect(retrieved).toMatchObject({ id: plain.id, status: 'completed' });
    expect(retrieved.output_text).toBe('Desk: Writer wrote about tides.');
    const streamed = await second.client.responses.retrieve(streamedId);
    expect(streamed.output_text).toBe('Desk: Writer wrote about waves.');
  });

  it('404s an unknown response and 400s a malformed id, naming it', async () => {
    const { client } = await serveOn(path.join(tempDir(), 'colloquy.db'));
    const created = await client.responses.create({ model: 'frontdesk', input: 'tides' });
    const unknown = created.id.replace(/\.[0-9a-f]+$/, '.0123456789abcdef');
    await expect(client.responses.retrieve(unknown)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const bad = await client.responses.retrieve('nope').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
  });
});
