/**
 * Memory on Postgres and Redis inside an agency: recall across chats; a change of embedder is
 * caught at start-up (`memory.ready()`); without pgvector, one notice says search scans.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { createLogger, getDefaultLogger, setDefaultLogger } from '../../src/logger.js';
import { HashedEmbedder } from '../../src/memory/hashedEmbedder.js';
import { PostgresMemory } from '../../src/memory/postgresMemory.js';
import { RedisMemory } from '../../src/memory/redisMemory.js';
import type { MemoryBackend } from '../../src/memory/types.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { createRegistry } from '../../src/server/registry.js';
import { startServer } from '../../src/server/serve.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { recalledIn } from '../../examples/memory/remember.js';
import {
  postgresSkip,
  postgresUrl,
  redisSkip,
  redisUrl,
  uniqueName,
} from '../setup/serviceUrls.js';

const opened: MemoryBackend[] = [];
afterAll(async () => {
  for (const backend of opened) await backend.close();
});

function agencyOn(backend: MemoryBackend, embedder = new HashedEmbedder()) {
  const model = new ScriptedModel(() => 'ok', { name: 'm', repeatLast: true });
  const agency = new Agency({
    name: 'mem',
    entryPoints: [new Agent({ name: 'A', instructions: 'Help.', model })],
    threads: new ThreadManager({ store: new MemoryStore() }),
    memory: { store: backend, embedder, recall: {} },
  });
  return { agency, model };
}

const cases: Array<[string, string | undefined, () => MemoryBackend]> = [
  [
    'Postgres',
    postgresSkip(),
    () => new PostgresMemory({ connectionString: postgresUrl(), schema: uniqueName('mem') }),
  ],
  [
    'Redis',
    redisSkip(),
    () => new RedisMemory({ url: redisUrl(), keyPrefix: `${uniqueName('mem')}:` }),
  ],
];

describe.each(cases)('memory on %s in an agency', (_name, skip, open) => {
  it.skipIf(skip !== undefined)(
    'recalls across chats and refuses another embedder at start-up',
    async () => {
      const backend = open();
      opened.push(backend);
      const { agency, model } = agencyOn(backend);
      await agency.memory!.ready();
      await agency.getResponse('My favourite colour is teal', { userId: 'u1', chatId: 'c1' });
      await agency.getResponse('Which colour do I like?', { userId: 'u1', chatId: 'c2' });
      expect(recalledIn(model.calls.at(-1)!.request)).toContain('My favourite colour is teal');
      await agency.getResponse('Which colour do I like?', { userId: 'u2', chatId: 'c3' });
      expect(recalledIn(model.calls.at(-1)!.request)).toBeUndefined();

      const changed = agencyOn(backend, new HashedEmbedder({ dimensions: 64 }));
      await expect(changed.agency.memory!.ready()).rejects.toThrow(
        /stored vectors are of hashed-bow-256 \(256 numbers\) but the embedder is hashed-bow-64.*reembed/,
      );
      // The server refuses to start, before listening.
      await expect(
        startServer({ registry: createRegistry({ agencies: [changed.agency] }), port: 0 }),
      ).rejects.toThrow(/reembed/);
      await expect(
        changed.agency.getResponse('Which colour do I like?', { userId: 'u1', chatId: 'c4' }),
      ).rejects.toThrow(/reembed/);
    },
  );
});

describe.skipIf(postgresSkip() !== undefined)('PostgresMemory without pgvector', () => {
  it('logs one notice that search scans, and still searches', async () => {
    const lines: string[] = [];
    const previous = getDefaultLogger();
    setDefaultLogger(
      createLogger({ level: 'warn', destination: { write: (l: string) => lines.push(l) } }),
    );
    const schema = uniqueName('mem');
    const backend = new PostgresMemory({ connectionString: postgresUrl(), schema });
    try {
      const pool = new pg.Pool({ connectionString: postgresUrl() });
      const installed = await pool.query(
        "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
      );
      await pool.end();
      const usesVector = await backend.ready();
      expect(usesVector).toBe(installed.rowCount === 1);
      await backend.search([1, 0], { userId: 'u1' }, 3);
      await backend.list({ userId: 'u1' });
      const notices = lines.filter((l) => l.includes('pgvector extension is not available'));
      expect(notices).toHaveLength(usesVector ? 0 : 1);
      if (!usesVector) expect(notices[0]).toContain('scans the user');
    } finally {
      setDefaultLogger(previous);
      await backend.close();
    }
  });
});
