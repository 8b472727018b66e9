// The lease fence on the Redis and Postgres stores (test/setup/services.ts servers).
import { describe, it } from 'vitest';
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
