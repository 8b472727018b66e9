// Id fuzzing through RedisStore and PostgresStore on the test servers started by
// test/setup/services.ts (skipped with the reason when a server is missing; fails under CI=true).
import { fuzzIds, networked } from './idFuzz.js';
import { postgresBackend, redisBackend } from './isolatedStores.js';

fuzzIds([networked(redisBackend(), 100), networked(postgresBackend(), 100)]);
