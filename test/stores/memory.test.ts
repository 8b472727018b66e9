import { runStoreConformance } from '../../src/testing.js';
import { MemoryStore } from '../../src/stores/memory.js';

runStoreConformance({ name: 'MemoryStore', create: async () => new MemoryStore() });
