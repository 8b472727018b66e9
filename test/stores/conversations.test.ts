import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { runStoreConformance } from '../../src/testing.js';
import { ConversationsStore } from '../../src/stores/conversations.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { ConversationsFake } from '../support/conversationsFake.js';

let fake: ConversationsFake | undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-conversations-'));
afterAll(async () => {
  await fake?.stop();
  rmSync(dir, { recursive: true, force: true });
});
const service = async (): Promise<string> =>
  (fake ??= await new ConversationsFake().start()).baseURL;

runStoreConformance({
  name: 'ConversationsStore (fake Conversations API, memory index)',
  create: async () =>
    new ConversationsStore({ baseURL: await service(), index: new MemoryStore() }),
});

let n = 0;
runStoreConformance({
  name: 'ConversationsStore (fake Conversations API, SQLite index)',
  create: async () =>
    new ConversationsStore({
      baseURL: await service(),
      index: new SqliteStore({ path: path.join(dir, `index-${n++}.db`) }),
    }),
});
