// PostgresStore against the real Postgres started by test/setup/services.ts (skips with a reason
// when postgresql is not installed; fails under CI=true). Each test gets its own schema.
import { runStoreConformance } from '../../src/testing.js';
import { postgresBackend } from './isolatedStores.js';

runStoreConformance(postgresBackend());
