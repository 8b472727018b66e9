/**
 * `colloquy threads replay CHAT --at ITEM_ID`: "what if?" from the terminal. Runs the turn that
 * holds the item again in a fork, with `--set` changes (an agent's instructions or model) or
 * another `--message`, on the agency that ran the chat (`--agency MODULE[#export]`, else the
 * project's agencies module, else the demo agency), and prints the fork's chat id, the model calls
 * replayed and made, and what differs (`--json`: the whole result).
 * @module
 */
import type { Command } from 'commander';
import type { Model } from '@openai/agents-core';
import type { Agency } from '../../agency/agency.js';
import type { ReplayDifference, BranchUsage } from '../../agency/replay/compare.js';
import type { ReplayResult } from '../../agency/replay/replay.js';
import { ConfigError } from '../../errors.js';
import { parseSetFlags } from './replaySet.js';

interface ReplayFlags {
  at: string;
  set: string[];
  message?: string;
  json?: boolean;
  agency?: string;
  config?: string;
  store?: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The agency the replay runs on (see the module comment); `close` releases what was opened. */
async function chooseAgency(
  flags: ReplayFlags,
): Promise<{ agency: Agency; close: () => Promise<void> }> {
  const keep = async () => undefined;
  if (flags.agency) {
    if (flags.store !== undefined) {
      throw new ConfigError(
        '--store is for the demo agency or a createAgencies module: the agency of --agency replays on its own store. Drop --store.',
      );
    }
    const { loadAgencyModule } = await import('../loadModule.js');
    const { pickAgency } = await import('../pickAgency.js');
    return {
      agency: pickAgency((await loadAgencyModule(flags.agency)).agencies, flags.agency),
      close: keep,
    };
  }
  const { readConfig, resolveAgencyModule, importAgencies } =
    await import('../../server/registry.js');
  const config = await readConfig(flags.config);
  const { openStore } = await import('../../stores/openStore.js');
  const store = await openStore(flags.store);
  if (config.agencies) {
    const { importModuleExports } = await import('../loadModule.js');
    const file = resolveAgencyModule(config.agencies, config.baseDir);
    const agencies = await importAgencies(file, { store, importModule: importModuleExports });
    if (agencies.size > 1) {
      throw new ConfigError(
        `${file} exports ${agencies.size} agencies (${[...agencies.keys()].join(', ')}). Pick the one that ran the chat: --agency ${file}#EXPORT.`,
      );
    }
    return { agency: [...agencies.values()][0]!, close: () => store.close() };
  }
  // As in an agencies module importing 'colloquy': a model named in --set runs on OpenAI.
  (await import('../../models/openaiDefault.js')).useOpenAIByDefault();
  const { createDemoAgency } = await import('../../demo/demoAgency.js');
  const { ThreadManager } = await import('../../threads/threadManager.js');
  return {
    agency: createDemoAgency({ threads: new ThreadManager({ store }) }),
    close: () => store.close(),
  };
}

/** A model name as a Model: a profile of the project (colloquy.yaml, user profiles), else the name. */
async function modelFor(name: string): Promise<string | Model> {
  const { loadProjectProfiles } = await import('../../models/projectConfig.js');
  const registry = await loadProjectProfiles({ cwd: process.cwd() });
  if (!registry.has(name)) return name;
  const { createModel } = await import('../../models/resolve.js');
  return createModel(name, registry);
}

function cell(value: string | BranchUsage | null): string {
  if (value === null) return '—';
  if (typeof value !== 'string') {
    const tokens = `${value.inputTokens ?? '?'} in / ${value.outputTokens ?? '?'} out`;
    return value.cost === null ? tokens : `${tokens}, $${value.cost.toFixed(6)}`;
  }
  const line = value.replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** The comparison as lines (what the command prints without `--json`). */
export async function formatReplay(
  result: ReplayResult,
  stream: { isTTY?: boolean } = process.stdout,
): Promise<string[]> {
  const { renderTable } = await import('../table.js');
  const { painter } = await import('../style.js');
  const paint = painter(stream);
  const perAgent = Object.entries(result.modelCalls.byAgent)
    .map(([agent, calls]) => `${agent} ${calls.replayed}/${calls.live}`)
    .join(', ');
  const lines = [
    `Replayed chat ${result.forkOf} from item ${result.at} into chat ${paint('bold', result.chatId)} (agency ${result.agency}).`,
    `Model calls: ${result.modelCalls.replayed} replayed, ${result.modelCalls.live} live${perAgent ? ` (replayed/live: ${perAgent})` : ''}.`,
  ];
  if (result.differences.length === 0)
    return [...lines, 'No differences: both branches are the same.'];
  const rows = result.differences.map((d: ReplayDifference) => [
    d.agent,
    d.kind.replace('_', ' '),
    paint('red', cell(d.original)),
    paint('green', cell(d.replay)),
  ]);
  return [
    ...lines,
    `${result.differences.length} differences:`,
    ...renderTable(['agent', 'what', 'original', 'what if'], rows, {
      head: (text) => paint('bold', text),
      indent: 2,
    }),
  ];
}

/** Registers `colloquy threads replay` on the `threads` command. */
export function registerThreadsReplay(threads: Command): void {
  threads
    .command('replay')
    .description(
      'What if? Run a turn of a chat again in a fork with one thing changed, and compare.',
    )
    .argument('<chatId>')
    .requiredOption(
      '--at <itemId>',
      'the first item to run again (its turn runs again; earlier turns are kept)',
    )
    .option(
      '--set <AGENT.KEY=VALUE>',
      'AGENT.instructions=@file.md|TEXT or AGENT.model=NAME (repeatable)',
      collect,
      [],
    )
    .option('--message <text>', "the user's message of that turn, changed")
    .option('--json', 'print the whole result as JSON')
    .option(
      '--agency <module>',
      'the agency module (MODULE#export) that ran the chat (default: colloquy.yaml agencies, else the demo)',
    )
    .option('--config <path>', 'the colloquy.yaml to read (default: ./colloquy.yaml if present)')
    .option('--store <spec>', 'the store of the demo agency or of a createAgencies module')
    .action(async (chatId: string, flags: ReplayFlags) => {
      const { getTraceRecorder, flushTracing } = await import('../../tracing/setup.js');
      getTraceRecorder();
      const { agency, close } = await chooseAgency(flags);
      try {
        const parsed = parseSetFlags(flags.set, [...agency.agents.keys()], agency.name);
        const set: Record<string, { instructions?: string; model?: string | Model }> = {};
        for (const [agent, change] of Object.entries(parsed)) {
          set[agent] = {
            ...(change.instructions !== undefined ? { instructions: change.instructions } : {}),
            ...(change.model !== undefined ? { model: await modelFor(change.model) } : {}),
          };
        }
        const { replayChat } = await import('../../agency/replay/replay.js');
        const result = await replayChat(agency, {
          chatId,
          at: flags.at,
          set,
          ...(flags.message !== undefined ? { message: flags.message } : {}),
        });
        await flushTracing();
        const out = flags.json ? [JSON.stringify(result, null, 2)] : await formatReplay(result);
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        await close();
      }
    });
}
