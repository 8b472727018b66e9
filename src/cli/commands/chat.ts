/**
 * `colloquy chat MODULE[#export]`: a terminal chat with the Agency a module exports, streaming
 * each answer under the live tree of agent runs, with slash commands for time travel and traces.
 * @module
 */
import type { Command } from 'commander';
import { pickAgency } from '../pickAgency.js';
import type { Agency } from '../../agency/agency.js';
import { ConfigError } from '../../errors.js';

interface ChatFlags {
  chatId?: string;
  progress: boolean;
}

/** The slash commands, for `/help`. */
export const CHAT_HELP = [
  '/checkpoint [label]  record a checkpoint of this chat and print its id',
  '/rollback ID         restore the chat to checkpoint ID',
  '/fork                continue in a copy of this chat (the original is kept)',
  '/threads             list the threads of this chat',
  "/trace               print the last call's span tree with timings and tokens",
  '/help                this list;  /exit  leave (or Ctrl-D)',
];

export { pickAgency } from '../pickAgency.js';

/** Runs one slash command; returns the new chat id (after /fork) or the same. */
export async function slashCommand(
  agency: Agency,
  chatId: string,
  line: string,
  print: (text: string) => void,
): Promise<string> {
  const [command, ...rest] = line.trim().split(/\s+/);
  const argument = rest.join(' ');
  switch (command) {
    case '/checkpoint': {
      const id = await agency.checkpoint(chatId, argument || undefined);
      print(`checkpoint ${id} (roll back with /rollback ${id})`);
      return chatId;
    }
    case '/rollback': {
      if (!argument) throw new ConfigError('/rollback needs a checkpoint id: /rollback ID.');
      await agency.rollback(chatId, argument);
      print(`chat ${chatId} is back at checkpoint ${argument}`);
      return chatId;
    }
    case '/fork': {
      const forked = await agency.forkChat(chatId, argument || undefined);
      print(`forked: now in chat ${forked} (the original ${chatId} is kept)`);
      return forked;
    }
    case '/threads': {
      const records = await agency.threads.store.listThreads({ chatId });
      const { renderTable } = await import('../table.js');
      print(
        records.length === 0
          ? `No threads in chat ${chatId} yet.`
          : renderTable(
              ['thread', 'items'],
              records.map((r) => [r.threadId, r.version]),
              { align: ['left', 'right'] },
            ).join('\n'),
      );
      return chatId;
    }
    case '/trace': {
      const { traceStoreFor } = await import('../../stores/traceStores.js');
      const { renderTraceTree } = await import('../traceTree.js');
      const traces = await traceStoreFor(agency.threads.store);
      const [latest] = await traces.listTraces({ chatId, limit: 1 });
      const stored = latest ? await traces.getTrace(latest.traceId) : null;
      print(stored ? renderTraceTree(stored).join('\n') : `No trace of chat ${chatId} yet.`);
      return chatId;
    }
    case '/help':
      print(CHAT_HELP.join('\n'));
      return chatId;
    default:
      print(`Unknown command ${command}. ${CHAT_HELP.join('\n')}`);
      return chatId;
  }
}

/** Streams the answer to one message, under the live tree of runs when `progress` is on. */
async function answer(agency: Agency, text: string, chatId: string, progress: boolean) {
  const { getTraceRecorder } = await import('../../tracing/setup.js');
  const { startLiveProgress } = await import('../progress/liveProgress.js');
  const live = progress ? await startLiveProgress(getTraceRecorder()) : undefined;
  const write = (delta: string) =>
    live ? live.appendFooter(delta) : void process.stdout.write(delta);
  let streamed = false;
  try {
    for await (const event of agency.getResponseStream(text, { chatId })) {
      if (event.type === 'raw_model_stream_event' && event.depth === 0) {
        const data = event.data as { type?: string; delta?: string };
        if (data.type === 'output_text_delta' && data.delta) {
          if (!streamed && !live) process.stdout.write(`${agency.entryPoints[0]} › `);
          streamed = true;
          write(data.delta);
        }
      }
      if (event.type === 'run_completed' && !streamed)
        write(String(event.result.finalOutput ?? ''));
      if (event.type === 'error')
        write(`\nerror [${event.error.code ?? 'ERROR'}]: ${event.error.message}`);
    }
  } catch {
    // The error event above already said what failed.
  } finally {
    live?.stop();
    if (!live || !process.stderr.isTTY) process.stdout.write('\n');
  }
}

/** Registers `colloquy chat`. */
export function registerChatCommand(program: Command): void {
  program
    .command('chat')
    .description('Chat in the terminal with the Agency a .ts/.js module exports (MODULE[#export]).')
    .argument('<module>', 'a .ts/.js file exporting an Agency; MODULE#export picks one export')
    .option('--chat-id <id>', 'continue (or start) this chat')
    .option('--no-progress', 'no live tree of agent runs')
    .action(async (specifier: string, flags: ChatFlags) => {
      const { loadAgencyModule } = await import('../loadModule.js');
      const { getTraceRecorder, flushTracing } = await import('../../tracing/setup.js');
      const { createInterface } = await import('node:readline/promises');
      const { randomUUID } = await import('node:crypto');
      // The CLI's logger and tracing first: the module's copy of Colloquy then shares them.
      (await import('../../logger.js')).getDefaultLogger();
      getTraceRecorder();
      const loaded = await loadAgencyModule(specifier);
      const agency = pickAgency(loaded.agencies, specifier);
      let chatId = flags.chatId ?? `chat_${randomUUID()}`;
      const out = (text: string) => void process.stdout.write(`${text}\n`);
      out(
        `Chatting with agency "${agency.name}" (entry: ${agency.entryPoints.join(', ')}), chat ${chatId}. /help for commands.`,
      );
      const tty = Boolean(process.stdin.isTTY);
      const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: tty });
      rl.setPrompt('you › ');
      // The prompt comes back once a line's output is printed; `atPrompt` says whether the cursor
      // sits after one (Ctrl-D there needs a newline before "Bye.").
      let atPrompt = false;
      const prompt = () => {
        if (!tty) return;
        rl.prompt();
        atPrompt = true;
      };
      prompt();
      try {
        for await (const line of rl) {
          atPrompt = false;
          const text = line.trim();
          if (text === '/exit' || text === '/quit') break;
          // Keys typed while an answer streams wait in the terminal until the next prompt.
          if (tty) rl.pause();
          if (text.startsWith('/')) {
            try {
              chatId = await slashCommand(agency, chatId, text, out);
            } catch (error) {
              out(`error: ${(error as Error).message}`);
            }
          } else if (text !== '') {
            await answer(agency, text, chatId, flags.progress);
          }
          prompt();
        }
      } finally {
        if (atPrompt) process.stdout.write('\n');
        rl.close();
        await flushTracing();
        out(`Bye. Continue with: colloquy chat ${specifier} --chat-id ${chatId}`);
      }
    });
}
