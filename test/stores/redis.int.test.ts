// RedisStore against the real Redis started by test/setup/services.ts (skips with a reason when
// redis-server is not installed; fails under CI=true). Each test gets its own key prefix.
import { runStoreConformance } from '../../src/testing.js';
import { redisBackend } from './isolatedStores.js';

runStoreConformance(redisBackend());
