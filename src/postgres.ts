/**
 * `colloquy/postgres`: the PostgreSQL thread store (loads the `pg` driver only when imported).
 * @module
 */
export { PostgresStore } from './stores/postgres.js';
export type { PostgresStoreOptions } from './stores/postgres.js';
export type { PostgresLeases, RunQuery } from './stores/postgresLeases.js';
export { PostgresTraceStore } from './stores/postgresTraces.js';
export type { RunTraceQuery } from './stores/postgresTraces.js';
export { PostgresMemory } from './memory/postgresMemory.js';
export type { PostgresMemoryOptions } from './memory/postgresMemory.js';
