/**
 * Seeing and controlling memory: HTTP (`userId` in the body; `/memory` routes list, search, forget
 * and roll working memory back) and the CLI (`colloquy memory list|search|forget|reembed`), which
 * say what they deleted; a re-embedded store refuses the old embedder at start-up.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryAgency } from '../../examples/memory/remember.js';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { HashedEmbedder } from '../../src/memory/hashedEmbedder.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { createApp } from '../../src/server/app.js';
import { createRegistry } from '../../src/server/registry.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { runCli } from '../cli/runCli.js';

const json = async (response: Response): Promise<{ status: number; body: any }> => ({
  status: response.status,
  body: await response.json(),
});
const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('memory over HTTP', () => {
  it('takes userId in the body, then lists, searches, rolls back and forgets', async () => {
    const model = new ScriptedModel(() => 'ok', { name: 'm', repeatLast: true });
    const agency = new Agency({
      name: 'mem',
      entryPoints: [new Agent({ name: 'A', instructions: 'Help.', model })],
      threads: new ThreadManager({ store: new MemoryStore() }),
      memory: { embedder: new HashedEmbedder(), recall: {}, working: true },
    });
    const app = createApp({ registry: createRegistry({ agencies: [agency] }) });
    const said = await json(
      await app.request(
        '/agencies/mem/responses',
        post({ message: 'My favourite colour is teal', userId: 'u1' }),
      ),
    );
    expect(said.status).toBe(200);
    await agency.memory!.backend.putWorking('mem', 'u1', 'likes teal');
    await agency.memory!.backend.putWorking('mem', 'u1', 'likes red');

    const listed = await json(await app.request('/memory/mem/users/u1'));
    expect(listed.body.records.map((r: { text: string }) => r.text)).toEqual([
      'My favourite colour is teal',
      'ok',
    ]);
    expect(listed.body.working).toHaveLength(2);
    const found = await json(await app.request('/memory/mem/users/u1/search?q=favourite%20colour'));
    expect(found.body.hits[0]).toMatchObject({ text: 'My favourite colour is teal', role: 'user' });
    expect((await json(await app.request('/memory/mem/users/u2'))).body.records).toEqual([]);

    const rolled = await json(
      await app.request('/memory/mem/users/u1/working/rollback', post({ version: 1 })),
    );
    expect(rolled.body.working).toMatchObject({ version: 3, content: 'likes teal' });
    const bad = await json(
      await app.request('/memory/mem/users/u1/working/rollback', post({ version: 7 })),
    );
    expect(bad.status).toBe(400);

    const forgot = await json(await app.request('/memory/mem/users/u1', { method: 'DELETE' }));
    expect(forgot.body.deleted).toEqual({ vectors: 2, workingVersions: 3, summaries: 0 });
    expect((await json(await app.request('/memory/mem/users/u1'))).body).toMatchObject({
      records: [],
      working: [],
    });
    expect((await app.request('/memory/nope/users/u1')).status).toBe(404);
  });
});

describe('colloquy memory', () => {
  let db: string;
  const env = process.env.COLLOQUY_DB;
  beforeEach(() => {
    db = path.join(mkdtempSync(path.join(tmpdir(), 'memory-cli-')), 'colloquy.db');
    process.env.COLLOQUY_DB = db;
  });
  afterEach(() => {
    process.env.COLLOQUY_DB = env;
  });

  it('lists, searches, re-embeds and forgets, saying what it deleted', async () => {
    const { agency } = memoryAgency(db);
    await agency.getResponse('My favourite colour is teal', { userId: 'u1', chatId: 'c1' });
    await agency.getResponse('I was born in Lisbon', { userId: 'u2', chatId: 'c2' });
    await agency.threads.store.close();

    const listed = await runCli('memory', 'list', '--user', 'u1');
    expect(listed.stdout).toContain('2 remembered messages, 0 working-memory versions.');
    expect(listed.stdout).toContain('user: My favourite colour is teal');
    expect(listed.stdout).not.toContain('Lisbon');
    const searched = await runCli('memory', 'search', 'colour', '--user', 'u1', '--json');
    expect(JSON.parse(searched.stdout)[0]).toMatchObject({ text: 'My favourite colour is teal' });

    const reembedded = await runCli('memory', 'reembed', '--embedder', 'hashed:64');
    expect(reembedded.stdout).toContain('Re-embedded 4 remembered messages with hashed:64.');
    const store = new SqliteStore({ path: db });
    expect(
      () =>
        new Agency({
          entryPoints: [new Agent({ name: 'A', model: new ScriptedModel(['x']) })],
          threads: new ThreadManager({ store }),
          memory: { embedder: new HashedEmbedder(), recall: {} },
        }),
    ).toThrow(/hashed-bow-64 \(64 numbers\).*reembed/);
    await store.close();

    const forgot = await runCli('memory', 'forget', '--user', 'u1');
    expect(forgot.stdout).toContain(
      'Forgot user u1: 2 remembered messages (vectors), 0 working-memory versions, 0 summaries.',
    );
    expect((await runCli('memory', 'list', '--user', 'u1')).stdout).toContain(
      '0 remembered messages',
    );
    expect((await runCli('memory', 'list', '--user', 'u2')).stdout).toContain('Lisbon');
    const missing = await runCli('memory', 'list');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--user ID');
  });

  it('shows working-memory versions and rolls back (colloquy memory working)', async () => {
    const { agency } = memoryAgency(db);
    await agency.getResponse('My favourite colour is teal', { userId: 'u1', chatId: 'c1' });
    const backend = agency.memory!.backend;
    const name = agency.name;
    await backend.putWorking(name, 'u1', 'likes teal');
    await backend.putWorking(name, 'u1', 'likes red');
    await agency.threads.store.close();

    const shown = await runCli('memory', 'working', '--user', 'u1');
    expect(shown.stdout).toMatch(new RegExp(`${name}  v1 .* likes teal`));
    expect(shown.stdout).toMatch(new RegExp(`${name}  v2 .* likes red`));
    const one = await runCli('memory', 'working', '--user', 'u1', '--agency', name, '--show', '1');
    expect(one.stdout.trim()).toBe('likes teal');

    const rolled = await runCli(
      'memory',
      'working',
      '--user',
      'u1',
      '--agency',
      name,
      '--rollback',
      '1',
    );
    expect(rolled.stdout).toContain('back to version 1: it is now version 3.');
    const after = await runCli('memory', 'working', '--user', 'u1', '--agency', name, '--json');
    expect(JSON.parse(after.stdout).map((w: { content: string }) => w.content)).toEqual([
      'likes teal',
      'likes red',
      'likes teal',
    ]);

    const missing = await runCli(
      'memory',
      'working',
      '--user',
      'u1',
      '--agency',
      name,
      '--rollback',
      '9',
    );
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('no working-memory version 9. Versions: 1, 2, 3.');
    const noAgency = await runCli('memory', 'working', '--user', 'u1', '--rollback', '1');
    expect(noAgency.stderr).toContain('--agency NAME');
    const both = await runCli(
      'memory',
      'working',
      '--user',
      'u1',
      '--show',
      '1',
      '--rollback',
      '1',
    );
    expect(both.stderr).toContain('not both');
  });
});
