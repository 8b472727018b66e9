/**
 * `colloquy traces list|show`: stored traces (one per agency call or ensemble run) as a list and
 * as a span tree with timings and tokens. Read-only: a missing database is an error, never created.
 * @module
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';

const STORE_HELP =
  'sqlite:PATH | redis://… | postgres://… (default: sqlite at $COLLOQUY_DB or ./.colloquy/colloquy.db)';

function print(lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

function limitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1)
    throw new ConfigError(`--limit "${value}" is not a whole number ≥ 1. Pass e.g. --limit 20.`);
  return limit;
}

interface ListFlags {
  store?: string;
  chatId?: string;
  runId?: string;
  limit?: string;
  json?: boolean;
}

/** Registers `colloquy traces`. */
export function registerTracesCommands(program: Command): void {
  const traces = program
    .command('traces')
    .description('List stored traces and print one as a span tree with timings and tokens.');

  traces
    .command('list')
    .description('List traces, newest first.')
    .option('--chat-id <id>', 'only the traces of this chat')
    .option('--run-id <id>', 'only the traces of this run')
    .option('--limit <n>', 'at most this many', '20')
    .option('--store <spec>', STORE_HELP)
    .option('--json', 'print the summaries as JSON')
    .action(async (flags: ListFlags) => {
      const { openTraceStoreForReading } = await import('../traceStoreSpec.js');
      const { summaryLine } = await import('../traceTree.js');
      const store = await openTraceStoreForReading(flags.store);
      try {
        const limit = limitOf(flags.limit);
        const list = await store.listTraces({
          ...(flags.chatId ? { chatId: flags.chatId } : {}),
          ...(flags.runId ? { runId: flags.runId } : {}),
          ...(limit ? { limit } : {}),
        });
        if (flags.json) return print([JSON.stringify(list, null, 2)]);
        print(list.length === 0 ? ['No traces.'] : list.map(summaryLine));
      } finally {
        await store.close();
      }
    });

  traces
    .command('show')
    .description('Print a trace as a tree (default: the newest, or the newest of --chat-id).')
    .argument('[traceId]')
    .option('--chat-id <id>', 'the newest trace of this chat')
    .option('--store <spec>', STORE_HELP)
    .option('--json', 'print the trace and its spans as JSON')
    .action(async (traceId: string | undefined, flags: ListFlags) => {
      const { openTraceStoreForReading } = await import('../traceStoreSpec.js');
      const { renderTraceTree } = await import('../traceTree.js');
      const { ColloquyError } = await import('../../errors.js');
      const store = await openTraceStoreForReading(flags.store);
      try {
        const id =
          traceId ??
          (
            await store.listTraces({ ...(flags.chatId ? { chatId: flags.chatId } : {}), limit: 1 })
          )[0]?.traceId;
        const found = id ? await store.getTrace(id) : null;
        if (!found) {
          throw new ColloquyError(
            'TRACE_NOT_FOUND',
            id
              ? `There is no trace ${id} in this store. List them with \`colloquy traces list\`.`
              : `There are no traces${flags.chatId ? ` of chat ${flags.chatId}` : ''} in this store. Run an agency first (e.g. \`colloquy demo\`).`,
          );
        }
        print(flags.json ? [JSON.stringify(found, null, 2)] : renderTraceTree(found));
      } finally {
        await store.close();
      }
    });
}
