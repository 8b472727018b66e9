import { runStoreConformance } from './conformance.js';
import { MemoryStore } from '../../src/stores/memory.js';

runStoreConformance({ name: 'MemoryStore', create: async () => new MemoryStore() });
