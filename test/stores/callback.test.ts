import { runStoreConformance } from '../../src/testing.js';
import { CallbackStore } from '../../src/stores/callback.js';

const map = () => new Map<string, string>();
// Only load/save: listing, deletes and checkpoints rely on what the instance remembers.
runStoreConformance({
  name: 'CallbackStore (load/save only)',
  create: async (db = map()) =>
    new CallbackStore({
      load: (id) => (db.has(id) ? JSON.parse(db.get(id)!) : null),
      save: (t) => void db.set(t.threadId, JSON.stringify(t)),
    }),
});
runStoreConformance({
  name: 'CallbackStore (with list/remove)',
  create: async (db = map()) =>
    new CallbackStore({
      load: async (id) => (db.has(id) ? JSON.parse(db.get(id)!) : null),
      save: async (t) => void db.set(t.threadId, JSON.stringify(t)),
      remove: (id) => void db.delete(id),
      list: () => [...db.keys()],
    }),
});
