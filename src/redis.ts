/**
 * `colloquy/redis`: the Redis thread store (loads the `redis` driver only when imported).
 * @module
 */
export { RedisStore } from './stores/redis.js';
export type { RedisStoreOptions } from './stores/redis.js';
export type { RedisLeases, RunScript } from './stores/redisLeases.js';
export type { RedisScript } from './stores/redisScripts.js';
export { RedisTraceStore, DEFAULT_MAX_REDIS_TRACES } from './stores/redisTraces.js';
export type { RedisTraceOptions, RunTraceScript } from './stores/redisTraces.js';
export { RedisMemory } from './memory/redisMemory.js';
export type { RedisMemoryOptions } from './memory/redisMemory.js';
