/**
 * `colloquy demo`: runs the demo agency (offline by default) and prints what happened.
 * @module
 */
import type { Command } from 'commander';
import type { Runner } from '@openai/agents-core';
import { ConfigError } from '../../errors.js';
import type { Usage } from '../../usage.js';
import type { DemoAgencyOptions } from '../../demo/demoAgency.js';
import type { ModelPrice } from '../../models/pricing.js';

/** The demo's default message (kept here so that `--help` loads no agency code). */
const DEMO_MESSAGE = 'Write a short brief about tidal energy.';

interface DemoFlags {
  json?: boolean;
  delay?: string;
  progress: boolean;
  chatId?: string;
  price?: string;
  model?: string;
  profile?: string;
  store?: string;
}

/** Every demo agent on one model profile from colloquy.yaml / the user profiles file. */
async function profileModels(
  profile: string,
): Promise<Pick<DemoAgencyOptions, 'model' | 'modelSettings'>> {
  const { loadProjectProfiles } = await import('../../models/projectConfig.js');
  const { checkProfileKeys } = await import('../../models/apiKeys.js');
  const { createModel, profileModelSettings } = await import('../../models/resolve.js');
  const registry = await loadProjectProfiles({ cwd: process.cwd() });
  checkProfileKeys(profile, registry);
  return {
    model: () => createModel(profile, registry),
    modelSettings: profileModelSettings(profile, registry),
  };
}

async function realModelRunner(model: string): Promise<Runner> {
  if (!process.env.OPENAI_API_KEY) {
    throw new ConfigError(
      `--model ${model} runs the demo on OpenAI, but OPENAI_API_KEY is not set. ` +
        'Export OPENAI_API_KEY=sk-..., or drop --model to run offline.',
    );
  }
  const { OpenAIProvider } = await import('@openai/agents-openai');
  const { Runner } = await import('@openai/agents-core');
  return new Runner({ modelProvider: new OpenAIProvider() });
}

/** Registers `colloquy demo`. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'Run a four-agent demo agency offline and print the conversation tree, threads and usage.',
    )
    .argument('[message]', 'what to ask the coordinator', DEMO_MESSAGE)
    .option('--json', 'print the getResponse result as JSON')
    .option('--chat-id <id>', 'continue (or start) this chat')
    .option('--model <name>', 'run every agent on this OpenAI model (needs OPENAI_API_KEY)')
    .option(
      '--profile <name>',
      'run every agent on this model profile (colloquy.yaml or ~/.config/colloquy/profiles.yaml)',
    )
    .option(
      '--price <input,output>',
      'price every agent at these USD per million input,output tokens (adds a cost column)',
    )
    .option(
      '--store <spec>',
      'thread store: sqlite:PATH | dir:PATH | memory (default: sqlite at ./.colloquy/colloquy.db)',
    )
    .option('--delay <ms>', 'wait this long in each offline model call (to watch the progress)')
    .option('--no-progress', 'no live tree (TTY) or per-run lines (otherwise) on stderr')
    .action(async (message: string, flags: DemoFlags) => {
      if (flags.model && flags.profile)
        throw new ConfigError('Pass either --model or --profile, not both.');
      const delayMs = flags.delay === undefined ? undefined : Number(flags.delay);
      if (delayMs !== undefined && (!Number.isInteger(delayMs) || delayMs < 0))
        throw new ConfigError(
          `--delay "${flags.delay}" is not a whole number of ms. Pass e.g. --delay 2000.`,
        );
      const { addUsage, emptyUsage } = await import('../../usage.js');
      const { createDemoAgency } = await import('../../demo/demoAgency.js');
      const { renderHistory, renderTranscript, renderUsage } = await import('../transcript.js');
      const { openThreadManager } = await import('../store.js');
      const { flushTracing, getTraceRecorder } = await import('../../tracing/setup.js');
      const runner = flags.model ? await realModelRunner(flags.model) : undefined;
      const models = flags.profile ? await profileModels(flags.profile) : {};
      const threads = await openThreadManager(flags.store);
      const progress =
        flags.progress && !flags.json
          ? await (
              await import('../progress/liveProgress.js')
            ).startLiveProgress(getTraceRecorder())
          : undefined;
      try {
        const agency = createDemoAgency({
          threads,
          ...(flags.model ? { model: flags.model } : {}),
          ...models,
          ...(runner ? { runner } : {}),
          ...(delayMs ? { delayMs } : {}),
          ...(flags.price ? { prices: demoPrices(flags.price) } : {}),
        });
        const perAgent = new Map<string, Usage>();
        agency.hooks.onRunEnd = ({ agent, usage }) => {
          const row = perAgent.get(agent) ?? emptyUsage();
          addUsage(row, usage);
          perAgent.set(agent, row);
        };
        const result = await agency.getResponse(
          message,
          flags.chatId ? { chatId: flags.chatId } : {},
        );
        progress?.stop();
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
          return;
        }
        const entry = agency.entryPoints[0]!;
        const history = await agency.threads.getThread(result.chatId, entry);
        const earlier =
          history.items.length - result.newItems.filter((i) => i.depth === 0).length - 1;
        const out: string[] = [];
        if (earlier > 0) {
          out.push(`Earlier in chat ${result.chatId} (${earlier} items in ${history.threadId})`);
          out.push(
            ...renderHistory(history.items.slice(0, earlier), entry).map((l) => `  ${l}`),
            '',
          );
        }
        out.push(
          'Conversation',
          ...renderTranscript(message, result, entry).map((l) => `  ${l}`),
          '',
        );
        out.push(`Threads (chat ${result.chatId}, store: ${agency.threads.store.kind})`);
        const records = await agency.threads.store.listThreads({ chatId: result.chatId });
        const { renderTable } = await import('../table.js');
        out.push(
          ...renderTable(
            ['thread', 'items'],
            records.map((record) => [record.threadId, record.version]),
            { align: ['left', 'right'], indent: 2 },
          ),
        );
        out.push('', 'Usage', ...renderUsage(perAgent, result.usage).map((l) => `  ${l}`));
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        progress?.stop();
        await flushTracing();
        await threads.store.close();
      }
    });
}

/** `--price 0.15,0.6`: the same price for every demo agent. */
function demoPrices(flag: string): Record<string, ModelPrice> {
  const [input, output] = flag.split(',').map(Number);
  if (!(input! >= 0) || !(output! >= 0)) {
    throw new ConfigError(
      `--price "${flag}" is not two prices. Pass USD per million input,output tokens, e.g. --price 0.15,0.6.`,
    );
  }
  const price = { inputPerMillion: input!, outputPerMillion: output! };
  return Object.fromEntries(
    ['Coordinator', 'Researcher', 'Writer', 'Editor'].map((agent) => [agent, price]),
  );
}
