// PostgresStore options and schema management: caller-owned pools, concurrent first use of one
// schema (migrations under an advisory lock), recorded migrations, bad schema names.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/stores/postgres.js';
import { postgresMigrations } from '../../src/stores/postgresMigrations.js';
import { postgresSkip, postgresUrl, uniqueName } from '../setup/serviceUrls.js';
import { postgresBackend } from './isolatedStores.js';

const entry = (n: number) => ({ id: `m${n}`, item: { role: 'user' as const, content: `hi ${n}` } });

describe.skipIf(Boolean(postgresSkip()))(
  `PostgresStore options${postgresSkip() ? ` (skipped: ${postgresSkip()})` : ''}`,
  () => {
    it('migrates a fresh schema once when 8 stores start using it at the same moment', async () => {
      const schema = uniqueName('test');
      const stores = Array.from(
        { length: 8 },
        () => new PostgresStore({ connectionString: postgresUrl(), schema }),
      );
      try {
        const versions = await Promise.all(
          stores.map((s, n) => s.append(`t${n}`, [entry(n)], { expectedVersion: 0 })),
        );
        expect(versions).toEqual(Array(8).fill(1));
        expect((await stores[0]!.listThreads()).map((t) => t.threadId)).toEqual([
          't0',
          't1',
          't2',
          't3',
          't4',
          't5',
          't6',
          't7',
        ]);
        const pool = new pg.Pool({ connectionString: postgresUrl() });
        const { rows } = await pool.query(
          `SELECT version FROM "${schema}".colloquy_migrations ORDER BY version`,
        );
        await pool.end();
        expect(rows.map((r: { version: number }) => r.version)).toEqual(
          postgresMigrations.map((_, i) => i + 1),
        );
      } finally {
        await Promise.all(stores.map((s) => s.close()));
        await postgresBackend().drop(schema);
      }
    });

    it('uses a caller-owned pool and leaves it open on close()', async () => {
      const pool = new pg.Pool({ connectionString: postgresUrl() });
      const schema = uniqueName('test');
      const store = new PostgresStore({ pool, schema });
      try {
        expect(await store.append('t', [entry(0)], { expectedVersion: 0 })).toBe(1);
        await store.close();
        expect((await pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
        await expect(store.getThread('t')).rejects.toMatchObject({ code: 'STORE_ERROR' });
      } finally {
        await postgresBackend().drop(schema);
        await pool.end();
      }
    });

    it('rejects a schema name that is not a plain identifier', () => {
      expect(() => new PostgresStore({ schema: 'bad"; DROP TABLE x; --' })).toThrow(
        /not a plain identifier/,
      );
    });
  },
);
