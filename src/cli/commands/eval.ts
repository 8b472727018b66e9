/**
 * `colloquy eval run|compare|capture`: score an agency or ensemble on a dataset (offline from
 * cassettes, or live), compare two runs, and turn a stored chat into a replayable case.
 * @module
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';

const STORE_HELP =
  'sqlite:PATH | dir:PATH | redis://… | postgres://… (default: sqlite at $COLLOQUY_DB or ./.colloquy/colloquy.db)';

interface RunFlags {
  agency?: string;
  ensemble?: string;
  profile?: string;
  repeat: string;
  concurrency: string;
  threshold?: string;
  out?: string;
  live?: boolean;
  tag?: string[];
  judgeProfile?: string;
  embedder?: string;
  json?: boolean;
  progress: boolean;
}

interface CaptureFlags {
  chat: string;
  trace?: string;
  out: string;
  recording?: string;
  store?: string;
  id?: string;
  tag?: string[];
}

function print(lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

function whole(value: string, flag: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new ConfigError(`${flag} "${value}" is not a whole number ≥ 1. Pass e.g. ${flag} 3.`);
  return number;
}

function fraction(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !(number >= 0 && number <= 1))
    throw new ConfigError(`${flag} "${value}" is not a number from 0 to 1. Pass e.g. ${flag} 0.8.`);
  return number;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

async function runAction(dataset: string, flags: RunFlags): Promise<void> {
  if (!flags.agency === !flags.ensemble)
    throw new ConfigError('Pass one of --agency demo|MODULE[#export] or --ensemble FILE|NAME.');
  const repeat = whole(flags.repeat, '--repeat');
  const concurrency = whole(flags.concurrency, '--concurrency');
  const threshold = fraction(flags.threshold, '--threshold');
  const targets = await import('./evalTarget.js');
  const target = flags.agency
    ? await targets.agencyTargetOf(flags.agency)
    : await targets.ensembleTargetOf(flags.ensemble!);
  const model = flags.profile ? await targets.profileModel(flags.profile) : undefined;
  const { runEval } = await import('../../evals/run.js');
  const { renderResults } = await import('../../evals/report.js');
  const { flushTracing } = await import('../../tracing/setup.js');
  const progress = flags.progress && !flags.json;
  try {
    const results = await runEval({
      dataset,
      target,
      repeat,
      concurrency,
      ...(threshold === undefined ? {} : { threshold }),
      ...(flags.out ? { out: flags.out } : {}),
      live: flags.live ?? false,
      ...(flags.tag ? { tags: flags.tag } : {}),
      ...(model ? { model } : {}),
      judge: targets.judgeOf(flags.judgeProfile),
      ...(flags.embedder ? { embedder: await targets.embedderOf(flags.embedder) } : {}),
      ...(progress
        ? {
            onProgress: ({ caseId, repeat: n, done, total, attempt }) => {
              const mean =
                attempt.scores.reduce((a, s) => a + s.score, 0) /
                Math.max(1, attempt.scores.length);
              process.stderr.write(
                `[${done}/${total}] ${caseId}${repeat > 1 ? ` #${n}` : ''}  ${mean.toFixed(2)}${attempt.error ? '  (failed)' : ''}\n`,
              );
            },
          }
        : {}),
    });
    if (flags.json) print([JSON.stringify(results, null, 2)]);
    else
      print([
        `${results.target}  ${results.runId}  ${results.dataset}`,
        '',
        ...renderResults(results),
      ]);
    if (!results.passed) process.exitCode = 1;
  } finally {
    await flushTracing();
  }
}

async function captureAction(flags: CaptureFlags): Promise<void> {
  const { assertSqliteExists, openTraceStoreForReading } = await import('../traceStoreSpec.js');
  const { openStore } = await import('../../stores/openStore.js');
  const { captureCase } = await import('../../evals/capture.js');
  assertSqliteExists(flags.store);
  const store = await openStore(flags.store);
  const traces = flags.trace ? await openTraceStoreForReading(flags.store) : undefined;
  try {
    const result = await captureCase({
      store,
      chatId: flags.chat,
      out: flags.out,
      ...(flags.trace ? { traceId: flags.trace } : {}),
      ...(traces ? { traces } : {}),
      ...(flags.recording ? { recording: flags.recording } : {}),
      ...(flags.id ? { id: flags.id } : {}),
      ...(flags.tag ? { tags: flags.tag } : {}),
    });
    const turns = Array.isArray(result.case.input) ? result.case.input.length : 1;
    print([
      `Captured case ${result.case.id} (${turns} turn${turns === 1 ? '' : 's'}, ${result.interactions} model calls) into ${flags.out}`,
      `cassette: ${result.cassette}`,
    ]);
  } finally {
    await traces?.close();
    await store.close();
  }
}

/** Registers `colloquy eval`. */
export function registerEvalCommands(program: Command): void {
  const evals = program
    .command('eval')
    .description('Score agencies and ensembles on datasets, compare runs, capture chats as cases.');

  evals
    .command('run')
    .description('Run every case of a dataset (from its cassettes, or live) and score it.')
    .argument('<dataset>', 'a .jsonl or .yaml dataset')
    .option(
      '--agency <spec>',
      'demo, or MODULE[#export] exporting an Agency or ({ model, threads }) => Agency',
    )
    .option('--ensemble <spec>', 'an ensemble file, or a name in ensembles_dir')
    .option('--profile <name>', 'run every agent of live cases on this model profile')
    .option('--repeat <n>', 'runs of each case (scores reported with their spread)', '1')
    .option('--concurrency <n>', 'runs at once', '4')
    .option('--threshold <0-1>', 'exit 1 when the mean score is below this')
    .option('--out <file>', 'also write the results JSON here')
    .option('--live', 'ignore cassettes: run every case on live models')
    .option('--tag <tag>', 'only cases with this tag (repeatable)', collect)
    .option('--judge-profile <name>', 'the model profile of judge scorers that name none')
    .option('--embedder <spec>', 'MODULE#export: the embedder of similarity scorers')
    .option('--json', 'print the results JSON instead of the table')
    .option('--no-progress', 'no per-run progress lines on stderr')
    .action(runAction);

  evals
    .command('compare')
    .description('Show per-case and per-scorer differences between two runs (ids or result files).')
    .argument('<a>', 'the baseline: a run id (in .colloquy/evals/) or a results file')
    .argument('<b>', 'the run to compare with it')
    .option('--json', 'print the comparison as JSON')
    .option('--fail-on-regression', 'exit 1 when a case scores lower in b')
    .action(async (a: string, b: string, flags: { json?: boolean; failOnRegression?: boolean }) => {
      const { readResults } = await import('../../evals/results.js');
      const { compare } = await import('../../evals/compare.js');
      const { renderComparison } = await import('../../evals/report.js');
      const comparison = compare(await readResults(a), await readResults(b));
      print(flags.json ? [JSON.stringify(comparison, null, 2)] : renderComparison(comparison));
      if (flags.failOnRegression && comparison.regressed.length > 0) process.exitCode = 1;
    });

  evals
    .command('capture')
    .description('Append a case made from a stored chat, with a cassette of its model calls.')
    .requiredOption('--chat <id>', 'the chat to capture')
    .option('--trace <id>', "end the case with this trace's turn (default: the last turn)")
    .requiredOption('--out <file>', 'the .jsonl dataset to append to (created if missing)')
    .option('--recording <file>', 'the cassette the run recorded (default: $COLLOQUY_RECORD)')
    .option('--store <spec>', STORE_HELP)
    .option('--id <id>', 'the case id (default: from the chat id)')
    .option('--tag <tag>', 'tag the case (repeatable)', collect)
    .action(captureAction);
}
