/**
 * An agency that remembers its users across chats and processes: semantic recall on the default
 * SQLite store (sqlite-vec, in the same file as the threads) and working memory. Offline: a
 * scripted model and the hashed embedder; swap in a real model and `profileEmbedder` to go live.
 *
 *   npx tsx examples/memory/remember.ts DB USER MESSAGE     (one call in a new chat; prints JSON)
 *   npx tsx examples/memory/remember.ts DB USER --forget    (forgets the user)
 *
 * Try: `... /tmp/m.db u1 "My favourite colour is teal"`, then in another process
 * `... /tmp/m.db u1 "Which colour do I like?"` (the answer quotes the recalled message), and
 * `... /tmp/m.db u2 "Which colour do I like?"` (nothing of u1's).
 *
 * In your own project, import these from 'colloquy' and 'colloquy/memory' instead of the source tree.
 */
import { pathToFileURL } from 'node:url';
import type { AgentInputItem, ModelRequest } from '@openai/agents-core';
import { Agency, Agent, SqliteStore, ThreadManager } from '../../src/index.js';
import { ScriptedModel } from '../../src/models.js';
import { HashedEmbedder } from '../../src/memory/hashedEmbedder.js';

/** The recall block in a model request, if any. */
export function recalledIn(request: ModelRequest): string | undefined {
  const items = Array.isArray(request.input) ? (request.input as AgentInputItem[]) : [];
  for (const item of items) {
    const content = (item as { content?: unknown }).content;
    if (typeof content === 'string' && content.includes('<recalled-memory>')) return content;
  }
  return undefined;
}

/** The agency: one assistant whose scripted model answers from what it recalls. */
export function memoryAgency(path: string): { agency: Agency; model: ScriptedModel } {
  const model = new ScriptedModel(
    (request) => {
      const recalled = recalledIn(request);
      const line = recalled?.split('\n').find((l) => l.startsWith('- ['));
      return line
        ? `From what you told me before: ${line.replace(/^- \[[^\]]*\] /, '')}`
        : 'Noted.';
    },
    { name: 'assistant' },
  );
  const assistant = new Agent({ name: 'Assistant', instructions: 'Help the user.', model });
  const agency = new Agency({
    name: 'remember',
    entryPoints: [assistant],
    threads: new ThreadManager({ store: new SqliteStore({ path }) }),
    memory: { embedder: new HashedEmbedder(), recall: { topK: 3 }, working: true },
  });
  return { agency, model };
}

async function main(path: string, userId: string, message: string): Promise<void> {
  const { agency, model } = memoryAgency(path);
  try {
    if (message === '--forget') {
      console.log(JSON.stringify({ forgotten: await agency.memory!.backend.forget(userId) }));
      return;
    }
    const result = await agency.getResponse(message, { userId, chatId: agency.newChat() });
    const input = model.calls.at(-1)?.request.input;
    console.log(JSON.stringify({ answer: result.finalOutput, chatId: result.chatId, input }));
  } finally {
    await agency.threads.store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [path, userId, message] = process.argv.slice(2);
  if (!path || !userId || !message) {
    console.error('usage: npx tsx examples/memory/remember.ts DB USER MESSAGE|--forget');
    process.exit(2);
  }
  await main(path, userId, message);
}
