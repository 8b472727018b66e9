// The lease fence on the Redis and Postgres stores (test/setup/services.ts servers), and a
// Postgres holder frozen inside a fenced write (its transaction must not block the lease).
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../src/errors.js';
import { withFence } from '../../src/stores/fence.js';
import { PostgresStore } from '../../src/stores/postgres.js';
import { postgresUrl, uniqueName } from '../setup/serviceUrls.js';
import { frozenHolderCannotWrite } from './fence.js';
import { postgresBackend, redisBackend } from './isolatedStores.js';

for (const backend of [redisBackend(), postgresBackend()]) {
  describe.skipIf(Boolean(backend.skip))(`lease fence (${backend.name})`, () => {
    it('refuses every write of a holder whose lease was taken by another', async () => {
      const store = await backend.create();
      try {
        await frozenHolderCannotWrite(store);
      } finally {
        await backend.destroy(store);
      }
    });
  });
}

const postgres = postgresBackend();

/**
 * A pool whose connections stop sending after a fence check: a process frozen mid-write.
 * `onFreeze` is called when a connection freezes.
 */
function freezingPool(onFreeze: () => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: postgresUrl()! });
  pool.on('error', () => undefined);
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => Promise<pg.PoolClient>;
  // pool.query() connects with a callback (single statements): left as they are.
  (pool as { connect: unknown }).connect = (...args: unknown[]) =>
    args.length > 0 ? connect(...args) : frozenClient(connect(), onFreeze);
  return pool;
}

async function frozenClient(
  connecting: Promise<pg.PoolClient>,
  onFreeze: () => void,
): Promise<pg.PoolClient> {
  {
    const client = await connecting;
    client.on('error', () => undefined);
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    let frozen = false;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      if (frozen) return new Promise(() => undefined);
      const result = query(...args);
      if (typeof args[0] === 'string' && args[0].includes('FOR SHARE')) {
        frozen = true;
        onFreeze();
      }
      return result;
    };
    return client;
  }
}

describe.skipIf(Boolean(postgres.skip))(
  'lease fence (PostgresStore, holder frozen mid-write)',
  () => {
    it('does not keep the lease row locked: the server ends the idle transaction', async () => {
      const schema = uniqueName('test');
      let freezes = 0;
      const pool = freezingPool(() => (freezes += 1));
      const frozen = new PostgresStore({ pool, schema, operationTimeoutMs: 3_000 });
      const other = new PostgresStore({
        connectionString: postgresUrl()!,
        schema,
        operationTimeoutMs: 5_000,
      });
      try {
        await other.listThreads(); // creates the schema
        await frozen.listThreads();
        expect(await frozen.leases.acquire('chat:c', 'old', 300)).toBe(true);
        const item = { id: 'late', item: { role: 'user' as const, content: 'late' } };
        const write = withFence({ key: 'chat:c', owner: 'old' }, () =>
          frozen.append('t', [item], { expectedVersion: 0, chatId: 'c' }),
        ).catch((error: unknown) => error);
        const frozenMidWrite = () =>
          expect(freezes, 'the write froze after its fence check').toBeGreaterThan(0);
        await vi.waitFor(frozenMidWrite, { timeout: 5_000 });
        // The old holder's lease expires while it is frozen inside the write; another takes it
        // (an acquire waits while the frozen transaction still locks the lease row).
        const started = Date.now();
        while (!(await other.leases.acquire('chat:c', 'new', 5_000))) {
          expect(Date.now() - started, 'the lease was taken over').toBeLessThan(6_000);
          await sleep(20);
        }
        expect(Date.now() - started).toBeLessThan(6_000);
        expect(await write).toBeInstanceOf(StoreError);
        expect(await other.getThread('t')).toBeNull();
      } finally {
        await other.close();
        void pool.end().catch(() => undefined);
        await postgres.drop(schema);
      }
    });
  },
);
