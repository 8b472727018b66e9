/**
 * Two processes on one Redis, and on one Postgres, send to the same chat at the same moment: the
 * store's lease makes the second wait, so it sees the first's turn and nothing interleaves. Uses
 * the servers of test/setup/services.ts (skips with the reason when one is not installed; fails
 * under CI=true).
 */
import { describe, it } from 'vitest';
import { postgresBackend, redisBackend, type IsolatedBackend } from '../stores/isolatedStores.js';
import { uniqueName } from '../setup/serviceUrls.js';
import { expectTwoProcessesSerialized } from './chatWorkers.js';

function crossProcess(backend: IsolatedBackend): void {
  const title = backend.skip
    ? `one chat, two processes on ${backend.name} (skipped: ${backend.skip})`
    : `one chat, two processes on ${backend.name}`;
  describe.skipIf(Boolean(backend.skip))(title, () => {
    it('serializes the calls through the store lease', async () => {
      const namespace = uniqueName('chatlease');
      const store = backend.open(namespace);
      try {
        // Create the schema (Postgres) once, so both children open a ready store.
        await store.listThreads();
        await expectTwoProcessesSerialized(backend.url(), namespace, store);
      } finally {
        await store.close();
        await backend.drop(namespace);
      }
    }, 60_000);
  });
}

crossProcess(redisBackend());
crossProcess(postgresBackend());
