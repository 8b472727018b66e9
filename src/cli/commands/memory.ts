/**
 * `colloquy memory list|search|working|forget|reembed`: what agencies remember about a user, on the
 * default store or the one `--store` names (memory lives beside the threads).
 * @module
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import {
  describeForget,
  forgetUser,
  listMemory,
  reembedMemory,
  searchMemory,
} from '../../memory/admin.js';
import { profileEmbedder, type Embedder } from '../../memory/embedder.js';
import { HashedEmbedder } from '../../memory/hashedEmbedder.js';
import { defaultBackend } from '../../memory/options.js';
import { rollbackWorkingMemory } from '../../memory/working.js';
import type { MemoryBackend } from '../../memory/types.js';
import { openStore } from '../../stores/openStore.js';

const STORE_HELP =
  'sqlite:PATH | memory (default: sqlite at $COLLOQUY_DB or ./.colloquy/colloquy.db)';
const EMBEDDER_HELP =
  'a profile of colloquy.yaml (openai, openai-compatible, ollama), or hashed[:DIMENSIONS] (offline)';

interface Flags {
  store?: string;
  show?: string;
  rollback?: string;
  user?: string;
  agency?: string;
  embedder?: string;
  dimensions?: string;
  top?: string;
  json?: boolean;
}

async function withBackend(
  spec: string | undefined,
  work: (backend: MemoryBackend) => Promise<void>,
): Promise<void> {
  const store = await openStore(spec);
  try {
    await work(defaultBackend(store));
  } finally {
    await store.close();
  }
}

/** The embedder `--embedder` names; without it, the offline one when the vectors are its own. */
async function embedderOf(flags: Flags, backend: MemoryBackend): Promise<Embedder> {
  const name =
    flags.embedder ?? (await backend.embedding())?.model.replace(/^hashed-bow-/, 'hashed:');
  const hashed = name?.match(/^hashed(?::(\d+))?$/);
  if (hashed) return new HashedEmbedder({ dimensions: Number(hashed[1] ?? 256) });
  if (!name || !flags.embedder) {
    throw new ConfigError(
      `The stored vectors are of ${name ?? 'no model yet'}: name the embedder to use with --embedder PROFILE (${EMBEDDER_HELP}).`,
    );
  }
  const { loadProjectProfiles } = await import('../../models/projectConfig.js');
  const profiles = await loadProjectProfiles();
  return profileEmbedder(profiles.get(name), {
    name,
    ...(flags.dimensions ? { dimensions: Number(flags.dimensions) } : {}),
  });
}

function print(value: unknown, json: boolean | undefined, lines: () => string[]): void {
  process.stdout.write(`${json ? JSON.stringify(value, null, 2) : lines().join('\n')}\n`);
}

function requireUser(flags: Flags): string {
  if (!flags.user) throw new ConfigError('Name the user: --user ID.');
  return flags.user;
}

/** Registers `colloquy memory` and its subcommands. */
export function registerMemoryCommands(program: Command): void {
  const memory = program
    .command('memory')
    .description('List, search, forget and re-embed what agencies remember about users.');
  const common = (cmd: Command): Command =>
    cmd
      .option('--store <spec>', STORE_HELP)
      .option('--user <id>', 'the user')
      .option('--agency <name>', 'one agency (default: all of the user’s)')
      .option('--json', 'print JSON');

  common(
    memory.command('list').description('The user’s remembered messages and working memory.'),
  ).action(async (flags: Flags) =>
    withBackend(flags.store, async (backend) => {
      const found = await listMemory(backend, requireUser(flags), flags.agency);
      print(found, flags.json, () => [
        `${found.records.length} remembered messages, ${found.working.length} working-memory versions.`,
        ...found.records.map(
          (r) => `${r.createdAt}  ${r.agency}  ${r.chatId}  ${r.role}: ${r.text.slice(0, 120)}`,
        ),
        ...found.working.map(
          (w) => `working v${w.version} (${w.agency}, ${w.createdAt}): ${w.content.slice(0, 200)}`,
        ),
      ]);
    }),
  );

  common(
    memory.command('search <query>').description('The remembered messages most similar to QUERY.'),
  )
    .option('--embedder <name>', EMBEDDER_HELP)
    .option('--top <n>', 'how many (default 10)')
    .action(async (query: string, flags: Flags) =>
      withBackend(flags.store, async (backend) => {
        const hits = await searchMemory(backend, await embedderOf(flags, backend), query, {
          userId: requireUser(flags),
          agency: flags.agency,
          topK: flags.top ? Number(flags.top) : 10,
        });
        print(hits, flags.json, () =>
          hits.length === 0
            ? ['Nothing remembered matches.']
            : hits.map(
                (h) =>
                  `${h.similarity.toFixed(3)}  ${h.agency}  ${h.chatId}  ${h.role}: ${h.text.slice(0, 120)}`,
              ),
        );
      }),
    );

  common(
    memory
      .command('working')
      .description(
        'The user’s working-memory versions; show one (--show) or roll back (--rollback).',
      ),
  )
    .option('--show <n>', 'print version N in full (--version is the CLI’s own)')
    .option('--rollback <n>', 'restore version N (as a new version; history is kept)')
    .action(async (flags: Flags) =>
      withBackend(flags.store, async (backend) => {
        const userId = requireUser(flags);
        if (flags.show !== undefined && flags.rollback !== undefined)
          throw new ConfigError('Give --show N or --rollback N, not both.');
        const chosen = flags.rollback ?? flags.show;
        const number = chosen === undefined ? undefined : Number(chosen);
        if (number !== undefined && !(Number.isInteger(number) && number >= 1))
          throw new ConfigError(
            `--${flags.rollback ? 'rollback' : 'show'} takes a version number ≥ 1 (got "${chosen}").`,
          );
        if (number !== undefined && flags.agency === undefined)
          throw new ConfigError(
            'Name the agency whose working memory to use: --agency NAME (see colloquy memory working --user ID).',
          );
        if (flags.rollback !== undefined) {
          const restored = await rollbackWorkingMemory(
            backend,
            { agency: flags.agency!, userId },
            number!,
          );
          print(restored, flags.json, () => [
            `Rolled ${userId}'s working memory in ${flags.agency} back to version ${number}: it is now version ${restored.version}.`,
          ]);
          return;
        }
        const { working } = await listMemory(backend, userId, flags.agency);
        if (number !== undefined) {
          const found = working.find((w) => w.version === number);
          if (!found)
            throw new ConfigError(
              `User "${userId}" of agency "${flags.agency}" has no working-memory version ${number}. Versions: ${working.map((w) => w.version).join(', ') || '(none)'}.`,
            );
          print(found, flags.json, () => [found.content]);
          return;
        }
        print(working, flags.json, () =>
          working.length === 0
            ? [`No working memory for ${userId}${flags.agency ? ` in ${flags.agency}` : ''}.`]
            : working.map(
                (w) =>
                  `${w.agency}  v${w.version}  ${w.createdAt}  ${w.content.replace(/\s+/g, ' ').slice(0, 100)}`,
              ),
        );
      }),
    );

  common(
    memory
      .command('forget')
      .description('Delete the user’s vectors, working memory and summaries.'),
  ).action(async (flags: Flags) =>
    withBackend(flags.store, async (backend) => {
      const user = requireUser(flags);
      const report = await forgetUser(backend, user, flags.agency);
      print(report, flags.json, () => [describeForget(report, user, flags.agency)]);
    }),
  );

  common(
    memory
      .command('reembed')
      .description('Embed every remembered message again with another embedder.'),
  )
    .option('--embedder <name>', EMBEDDER_HELP)
    .option('--dimensions <n>', 'the embedder’s output size, when not known')
    .action(async (flags: Flags) =>
      withBackend(flags.store, async (backend) => {
        if (!flags.embedder)
          throw new ConfigError(`Name the new embedder: --embedder NAME (${EMBEDDER_HELP}).`);
        const count = await reembedMemory(backend, await embedderOf(flags, backend));
        print({ reembedded: count }, flags.json, () => [
          `Re-embedded ${count} remembered messages with ${flags.embedder}.`,
        ]);
      }),
    );
}
