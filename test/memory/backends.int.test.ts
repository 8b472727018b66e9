/**
 * The memory backend conformance suite on Postgres (an exact scan: the test server has no
 * pgvector, so the notice path runs) and Redis, against the servers of test/setup/services.ts.
 * Each backend gets its own schema or key prefix, dropped afterwards.
 */
import pg from 'pg';
import { createClient } from 'redis';
import { PostgresMemory } from '../../src/memory/postgresMemory.js';
import { RedisMemory } from '../../src/memory/redisMemory.js';
import type { MemoryBackend } from '../../src/memory/types.js';
import {
  postgresSkip,
  postgresUrl,
  redisSkip,
  redisUrl,
  uniqueName,
} from '../setup/serviceUrls.js';
import { runMemoryBackendConformance } from './backendConformance.js';

const schemas = new WeakMap<MemoryBackend, string>();

runMemoryBackendConformance({
  name: 'PostgresMemory',
  skip: postgresSkip(),
  create: () => {
    const schema = uniqueName('mem');
    const backend = new PostgresMemory({ connectionString: postgresUrl(), schema });
    schemas.set(backend, schema);
    return Promise.resolve(backend);
  },
  destroy: async (backend) => {
    await backend.close();
    const pool = new pg.Pool({ connectionString: postgresUrl() });
    await pool.query(`DROP SCHEMA IF EXISTS "${schemas.get(backend)}" CASCADE`);
    await pool.end();
  },
});

runMemoryBackendConformance({
  name: 'RedisMemory',
  skip: redisSkip(),
  create: () => {
    const prefix = `${uniqueName('mem')}:`;
    const backend = new RedisMemory({ url: redisUrl(), keyPrefix: prefix });
    schemas.set(backend, prefix);
    return Promise.resolve(backend);
  },
  destroy: async (backend) => {
    await backend.close();
    const client = createClient({ url: redisUrl() });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${schemas.get(backend)}*` })) {
      if (keys.length > 0) await client.del(keys);
    }
    await client.close();
  },
});
