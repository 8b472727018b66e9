/**
 * `colloquy threads …`: look inside stored chats and travel in time, on the default store or the
 * one `--store` names.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ThreadStore } from '../../stores/types.js';
import { openStore } from '../../stores/openStore.js';
import { checkpointChat, forkChat, rollbackChat } from '../../threads/chatHistory.js';
import { exportChat, importChat, parseChatEnvelope } from '../../threads/serialization.js';
import { ColloquyError, SerializationError } from '../../errors.js';
import { registerThreadsReplay } from './threadsReplay.js';

const STORE_HELP =
  'sqlite:PATH | dir:PATH | redis://… | postgres://… | memory (default: sqlite at $COLLOQUY_DB or ./.colloquy/colloquy.db)';

/** Chat-level commands fail with CHAT_NOT_FOUND when a chat has no threads. */
async function assertChatExists(store: ThreadStore, chatId: string): Promise<void> {
  if ((await store.listThreads({ chatId })).length > 0) return;
  throw new ColloquyError(
    'CHAT_NOT_FOUND',
    `There is no chat "${chatId}" in the ${store.kind} store. List the stored chats with: colloquy threads list`,
  );
}

async function withStore(
  spec: string | undefined,
  work: (store: ThreadStore) => Promise<void>,
  options: { readOnly?: boolean } = {},
): Promise<void> {
  // Reading never creates a database (or its folder) at a mistyped path.
  if (options.readOnly) (await import('../traceStoreSpec.js')).assertSqliteExists(spec);
  const store = await openStore(spec);
  try {
    await work(store);
  } finally {
    await store.close();
  }
}

function print(lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

function summary(item: Record<string, unknown>): string {
  const content = item.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : ''))
            .join('')
        : item.type === 'function_call'
          ? `${String(item.name)}(${String(item.arguments)})`
          : item.type === 'function_call_result'
            ? `→ ${JSON.stringify(item.output)}`
            : '';
  return text.replace(/\s+/g, ' ').slice(0, 160);
}

/** Registers `colloquy threads` and its subcommands. */
export function registerThreadsCommands(program: Command): void {
  const threads = program
    .command('threads')
    .description('List, show, export, import, fork, roll back and replay stored chats.');
  const storeOption = (cmd: Command): Command => cmd.option('--store <spec>', STORE_HELP);

  storeOption(threads.command('list').description('List threads (of one chat with --chat).'))
    .option('--chat <id>', 'only the threads of this chat')
    .action(async (flags: { store?: string; chat?: string }) =>
      withStore(
        flags.store,
        async (store) => {
          const records = await store.listThreads(flags.chat ? { chatId: flags.chat } : {});
          if (records.length === 0)
            return print([flags.chat ? `No threads in chat ${flags.chat}.` : 'No threads.']);
          const { renderTable } = await import('../table.js');
          print(
            renderTable(
              ['thread', 'items', 'chat', 'updated'],
              records.map((r) => [r.threadId, r.version, r.chatId ?? '-', r.updatedAt]),
              { align: ['left', 'right'] },
            ),
          );
        },
        { readOnly: true },
      ),
    );

  storeOption(
    threads.command('show').description('Print one thread, item by item.').argument('<threadId>'),
  )
    .option('--json', 'print the items as JSON')
    .action(async (threadId: string, flags: { store?: string; json?: boolean }) =>
      withStore(
        flags.store,
        async (store) => {
          const record = await store.getThread(threadId);
          if (!record)
            throw new SerializationError(
              `No thread "${threadId}" in this store. List them with: colloquy threads list`,
            );
          const items = await store.readItems(threadId);
          if (flags.json) return print([JSON.stringify({ ...record, items }, null, 2)]);
          const { renderTable } = await import('../table.js');
          const rows = items.map(({ item, meta }, i) => {
            const who = meta
              ? `${meta.agent}${meta.callerAgent ? `←${meta.callerAgent}` : ''}`
              : '?';
            const kind = 'role' in item ? String(item.role) : String(item.type);
            return [i, who, kind, summary(item as Record<string, unknown>)];
          });
          print([
            `${threadId}  (chat ${record.chatId ?? '-'}, ${record.version} items${record.forkedFrom ? `, forked from ${record.forkedFrom.threadId}@${record.forkedFrom.version}` : ''})`,
            ...(rows.length > 0
              ? renderTable(['#', 'agent', 'type', 'content'], rows, { align: ['right'] })
              : []),
          ]);
        },
        { readOnly: true },
      ),
    );

  storeOption(
    threads
      .command('export')
      .description('Print a chat (threads and checkpoints) as JSON.')
      .argument('<chatId>'),
  ).action(async (chatId: string, flags: { store?: string }) =>
    withStore(
      flags.store,
      async (store) => {
        await assertChatExists(store, chatId);
        print([JSON.stringify(await exportChat(store, chatId), null, 2)]);
      },
      { readOnly: true },
    ),
  );

  storeOption(
    threads.command('import').description('Import a chat exported as JSON.').argument('<file>'),
  )
    .option('--as <chatId>', 'import under another chat id')
    .action(async (file: string, flags: { store?: string; as?: string }) =>
      withStore(flags.store, async (store) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(await readFile(file, 'utf8'));
        } catch (error) {
          throw new SerializationError(`${file} is not readable JSON: ${(error as Error).message}`);
        }
        const envelope = parseChatEnvelope(parsed, file);
        const chatId = await importChat(store, envelope, flags.as ? { as: flags.as } : {});
        print([
          `Imported chat ${chatId}: ${envelope.threads.length} threads, ${envelope.checkpoints.length} checkpoints.`,
        ]);
      }),
    );

  storeOption(
    threads
      .command('checkpoint')
      .description('Record a checkpoint of a chat.')
      .argument('<chatId>'),
  )
    .option('--label <text>', 'a label for the checkpoint')
    .action(async (chatId: string, flags: { store?: string; label?: string }) =>
      withStore(flags.store, async (store) => {
        await assertChatExists(store, chatId);
        const checkpoint = await checkpointChat(store, chatId, flags.label ?? null);
        print([`${checkpoint.checkpointId}  (${Object.keys(checkpoint.threads).length} threads)`]);
      }),
    );

  storeOption(
    threads
      .command('checkpoints')
      .description("List a chat's checkpoints, oldest first.")
      .argument('<chatId>'),
  ).action(async (chatId: string, flags: { store?: string }) =>
    withStore(
      flags.store,
      async (store) => {
        const list = await store.listCheckpoints(chatId);
        if (list.length === 0) return print([`Chat ${chatId} has no checkpoints.`]);
        print(list.map((c) => `${c.checkpointId}  ${c.createdAt}  ${c.label ?? ''}`));
      },
      { readOnly: true },
    ),
  );

  storeOption(
    threads
      .command('fork')
      .description('Continue a chat in a new chat (from now, or from a checkpoint).')
      .argument('<chatId>'),
  )
    .option('--at <checkpointId>', 'fork as of this checkpoint')
    .option('--as <newChatId>', 'id of the new chat')
    .action(async (chatId: string, flags: { store?: string; at?: string; as?: string }) =>
      withStore(flags.store, async (store) => {
        await assertChatExists(store, chatId);
        const newChatId = await forkChat(store, chatId, {
          ...(flags.at ? { checkpointId: flags.at } : {}),
          ...(flags.as ? { newChatId: flags.as } : {}),
        });
        print([`Forked ${chatId}${flags.at ? ` at ${flags.at}` : ''} into ${newChatId}.`]);
      }),
    );

  storeOption(
    threads
      .command('rollback')
      .description('Roll a chat back to a checkpoint (cut items are archived).')
      .argument('<chatId>')
      .argument('<checkpointId>'),
  ).action(async (chatId: string, checkpointId: string, flags: { store?: string }) =>
    withStore(flags.store, async (store) => {
      const archives = await rollbackChat(store, chatId, checkpointId);
      const lines = Object.entries(archives).map(
        ([thread, archive]) => `  ${thread}: later items kept in ${archive}`,
      );
      print([
        `Rolled ${chatId} back to ${checkpointId}.`,
        ...(lines.length > 0 ? lines : ['  (nothing to cut)']),
      ]);
    }),
  );

  storeOption(
    threads
      .command('delete')
      .description('Delete a chat: its threads, archives, checkpoints and traces.')
      .argument('<chatId>'),
  )
    .option('--yes', 'do not ask (required off a TTY)')
    .action(async (chatId: string, flags: { store?: string; yes?: boolean }) =>
      withStore(flags.store, async (store) => {
        const records = await store.listThreads({ chatId });
        if (records.length === 0) await assertChatExists(store, chatId);
        if (!flags.yes) {
          if (!process.stdin.isTTY)
            throw new ColloquyError(
              'CONFIG_INVALID',
              `Deleting chat ${chatId} needs --yes off a terminal.`,
            );
          const { createInterface } = await import('node:readline/promises');
          const rl = createInterface({ input: process.stdin, output: process.stderr });
          const answer = await rl.question(
            `Delete chat ${chatId} (${records.length} threads)? [y/N] `,
          );
          rl.close();
          if (!/^y(es)?$/i.test(answer.trim())) return print(['Kept.']);
        }
        for (const record of records) await store.deleteThread(record.threadId);
        const checkpoints = await store.listCheckpoints(chatId);
        const dropCheckpoint = (store as { deleteCheckpoint?: (id: string) => Promise<void> })
          .deleteCheckpoint;
        if (dropCheckpoint)
          for (const c of checkpoints) await dropCheckpoint.call(store, c.checkpointId);
        const { traceStoreFor } = await import('../../stores/traceStores.js');
        const traces = await (await traceStoreFor(store)).deleteTraces({ chatId });
        print([`Deleted chat ${chatId}: ${records.length} threads, ${traces} traces.`]);
      }),
    );

  registerThreadsReplay(threads);
}
