/**
 * The `pg` driver, an optional peer dependency: imported when a Postgres module is first loaded,
 * or a `ConfigError` naming `npm install pg` (see optionalPeer.ts).
 * @module
 */
import type pgTypes from 'pg';
import { importOptionalPeer } from '../optionalPeer.js';

/** The `pg` module's default export (`Pool`, `escapeLiteral`, ...). */
const pg: typeof pgTypes = (await importOptionalPeer('pg', () => import('pg'))).default;

// The types the Postgres modules name as `pg.X`, as `pg`'s own typings declare them.
// eslint-disable-next-line @typescript-eslint/no-namespace
declare namespace pg {
  type Pool = pgTypes.Pool;
  type PoolClient = pgTypes.PoolClient;
  type QueryResult<R extends pgTypes.QueryResultRow = any> = pgTypes.QueryResult<R>;
}

export default pg;
