// The newest-N read must stay an index range scan on a long thread: a plan that reads every item
// of the thread's segment made `readItems({ newest })` cost O(length) (39 ms at 100k items).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/stores/postgres.js';
import { postgresStatements } from '../../src/stores/postgresSql.js';
import { postgresSkip, postgresUrl, uniqueName } from '../setup/serviceUrls.js';

const skip = postgresSkip();

describe.skipIf(skip !== undefined)(
  `PostgresStore newest-N plan${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const schema = uniqueName('plan');
    let store: PostgresStore;
    let client: pg.Client;

    beforeAll(async () => {
      store = new PostgresStore({ connectionString: postgresUrl()!, schema });
      for (let v = 0; v < 20_000; v += 1000) {
        const items = Array.from({ length: 1000 }, (_, i) => ({
          id: `i${v + i}`,
          item: { role: 'user' as const, content: 'x'.repeat(200) },
        }));
        await store.append('long', items, { expectedVersion: v });
      }
      client = new pg.Client({ connectionString: postgresUrl()! });
      await client.connect();
      await client.query(`SET search_path TO ${schema}`);
      await client.query('ANALYZE');
    }, 60_000);

    afterAll(async () => {
      await client?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client?.end();
      await store?.close();
    });

    it('reads the newest 50 of 20,000 items through the index, touching 50 rows', async () => {
      const query = postgresStatements(schema).readItems;
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, [
        'long',
        0,
        null,
        50,
      ]);
      const plan = JSON.stringify(rows[0]['QUERY PLAN']);
      const itemScans = [
        ...plan.matchAll(
          /"Node Type":"([^"]+)"[^{}]*?"Relation Name":"colloquy_items"[^{}]*?"Actual Rows":(\d+)/g,
        ),
      ];
      expect(itemScans.length).toBeGreaterThan(0);
      for (const [, nodeType, actualRows] of itemScans) {
        expect(nodeType).toMatch(/Index/);
        expect(Number(actualRows)).toBeLessThanOrEqual(50);
      }
      expect((await store.readItems('long', { newest: 50 })).map((entry) => entry.id)).toEqual(
        Array.from({ length: 50 }, (_, i) => `i${19_950 + i}`),
      );
    });
  },
);
