import { afterAll } from 'vitest';
import { runStoreConformance } from '../../src/testing.js';
import { ConversationsStore } from '../../src/stores/conversations.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ConversationsFake } from '../support/conversationsFake.js';

let fake: ConversationsFake | undefined;
afterAll(() => fake?.stop());

runStoreConformance({
  name: 'ConversationsStore (fake Conversations API)',
  create: async () => {
    fake ??= await new ConversationsFake().start();
    return new ConversationsStore({
      baseURL: fake.baseURL,
      apiKey: 'sk-test',
      index: new MemoryStore(),
    });
  },
});
