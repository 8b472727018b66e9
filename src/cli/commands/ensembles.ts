/**
 * CLI commands for ensembles: `invoke`, `validate`, `list-ensembles`, `list-profiles`, `init`.
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { loadProjectConfig, loadProjectProfiles, PROJECT_CONFIG_FILE } from '../../config.js';
import type { ProfileRegistry } from '../../models/profiles.js';
import { ConfigError } from '../../errors.js';
import { openStore } from '../../stores/openStore.js';
import { listEnsembleFiles, loadEnsemble, resolveEnsemblePath } from '../../ensembles/load.js';
import { ScriptedInputHandler, TtyInputHandler } from '../../ensembles/inputHandlers.js';
import type { InputHandler } from '../../ensembles/inputHandlers.js';
import { runEnsemble } from '../../ensembles/run.js';
import type { EnsembleEvent } from '../../ensembles/events.js';
import type { ConversationResult } from '../../ensembles/result.js';
import { formatEnsembleIssue, validateEnsembleText } from '../../ensembles/validate.js';
import { parse as parseYaml } from 'yaml';

/**
 * The profiles an ensemble file sees: those of the nearest `colloquy.yaml` from the file's
 * directory up to `cwd` (so `examples/ensembles/*.yaml` use `examples/ensembles/colloquy.yaml`),
 * else those of `cwd`; the user's profiles are always included.
 */
export async function profilesForEnsemble(
  file: string,
  cwd = process.cwd(),
): Promise<ProfileRegistry> {
  const root = path.resolve(cwd);
  for (let dir = path.dirname(path.resolve(file)); dir.startsWith(root); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, PROJECT_CONFIG_FILE))) return loadProjectProfiles({ cwd: dir });
    if (dir === root || dir === path.dirname(dir)) break;
  }
  return loadProjectProfiles({ cwd: root });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** Prints progress on stderr: one redrawn status line on a TTY, plain lines otherwise. */
function progressReporter(live: boolean): {
  onEvent: (event: EnsembleEvent) => void;
  stop: () => void;
} {
  const started = Date.now();
  const running = new Set<string>();
  let turns = 0;
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  const draw = () =>
    process.stderr.write(
      `\r\x1b[2K⏵ turn ${turns} · ${elapsed()} · running: ${[...running].join(', ') || '-'}`,
    );
  const timer = live ? setInterval(draw, 100) : undefined;
  const line = (text: string) =>
    live ? process.stderr.write(`\r\x1b[2K${text}\n`) : process.stderr.write(`${text}\n`);
  return {
    onEvent(event) {
      if (event.type === 'ensemble_started')
        line(`run ${event.run_id}${event.resumed ? ` (resumed at turn ${event.turn_count})` : ''}`);
      else if (event.type === 'agent_started') running.add(event.agent);
      else if (event.type === 'agent_finished') {
        running.delete(event.agent);
        if (!event.success) line(`✗ ${event.agent}: ${event.error}`);
      } else if (event.type === 'turn_recorded') {
        turns = event.turn_count;
        line(
          `turn ${event.turn.turn_number}: ${event.turn.agent_name} (${event.turn.execution_time.toFixed(2)}s) [${elapsed()}]`,
        );
      } else if (event.type === 'ensemble_finished')
        line(
          `finished: ${event.result.completion_reason} after ${event.result.turn_count} turns [${elapsed()}]`,
        );
      if (live) draw();
    },
    stop() {
      if (timer) clearInterval(timer);
      if (live) process.stderr.write('\r\x1b[2K');
    },
  };
}

function printResult(result: ConversationResult, format: string): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const lines = [
    `completion_reason: ${result.completion_reason}`,
    `turn_count: ${result.turn_count}`,
    `run_id: ${result.run_id}`,
  ];
  if (result.error)
    lines.push(`error: ${result.error.agent ?? '(scheduler)'}: ${result.error.message}`);
  if (format === 'rich') {
    lines.push('', 'turn  agent                 time    output');
    for (const turn of result.conversation_history) {
      const output = JSON.stringify(turn.output_data);
      lines.push(
        `${String(turn.turn_number).padEnd(5)} ${turn.agent_name.padEnd(21)} ${turn.execution_time.toFixed(2).padStart(6)}s ${output.length > 80 ? `${output.slice(0, 77)}...` : output}`,
      );
    }
    lines.push('', `usage: ${result.usage.requests} requests, ${result.usage.total_tokens} tokens`);
  }
  lines.push('', 'final_state:', JSON.stringify(result.final_state, null, 2));
  process.stdout.write(`${lines.join('\n')}\n`);
}

interface InvokeOptions {
  input?: string;
  output?: string;
  inputs?: string;
  resume?: string;
  store?: string;
  runId?: string;
  concurrency?: string;
}

async function invoke(target: string, options: InvokeOptions): Promise<void> {
  const cwd = process.cwd();
  const project = await loadProjectConfig({ cwd });
  const file = resolveEnsemblePath(target, {
    cwd,
    ensemblesDir: path.resolve(project.baseDir, project.ensembles_dir),
  });
  const profiles = await profilesForEnsemble(file, cwd);
  const ensemble = await loadEnsemble(file, { profileNames: profiles.names() });
  const format = options.output ?? (process.stdout.isTTY ? 'rich' : 'text');
  if (!['rich', 'json', 'text'].includes(format))
    throw new ConfigError(`--output ${format} is not a format. Use rich, json or text.`);
  const input = options.input === '-' ? await readStdin() : options.input;
  let inputHandler: InputHandler | undefined;
  if (options.inputs)
    inputHandler = await ScriptedInputHandler.fromFile(path.resolve(options.inputs));
  else if (process.stdin.isTTY && options.input !== '-') inputHandler = new TtyInputHandler();
  const store = await openStore(options.store);
  // Traces and the live tree (colloquy/obs): on a TTY the run's spans drive the same live tree as
  // agencies; off a TTY the plain progress lines stay.
  const { createEnsembleTracer } = await import('../../ensembles/tracing.js');
  const { flushTracing, getTraceRecorder } = await import('../../tracing/setup.js');
  const tracer = await createEnsembleTracer({ store });
  const live = process.stderr.isTTY
    ? await (await import('../progress/liveProgress.js')).startLiveProgress(getTraceRecorder())
    : undefined;
  const lines = live ? undefined : progressReporter(false);
  const progress = {
    onEvent: (event: EnsembleEvent) => {
      tracer.onEvent(event);
      lines?.onEvent(event);
    },
    stop: () => {
      live?.stop();
      lines?.stop();
    },
  };
  try {
    const result = await runEnsemble(ensemble, {
      input,
      store,
      runId: options.runId,
      resume: options.resume,
      concurrency: options.concurrency ? Number(options.concurrency) : undefined,
      inputHandler,
      profiles,
      onEvent: progress.onEvent,
    });
    progress.stop();
    printResult(result, format);
    if (result.completion_reason === 'error') process.exitCode = 1;
  } finally {
    await tracer.finish();
    progress.stop();
    await flushTracing();
    await store.close();
  }
}

async function validate(files: string[]): Promise<void> {
  let problems = 0;
  for (const file of files) {
    let profileNames: string[] | undefined;
    try {
      profileNames = (await profilesForEnsemble(file)).names();
    } catch (error) {
      process.stderr.write(
        `${(error as Error).message}\n(profiles could not be loaded; model_profile names were not checked)\n`,
      );
      problems++;
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      process.stdout.write(`${file}:1:1: (file): cannot read: ${(error as Error).message}\n`);
      problems++;
      continue;
    }
    const { issues } = validateEnsembleText(text, { file, profileNames });
    for (const issue of issues) process.stdout.write(`${formatEnsembleIssue(issue)}\n`);
    if (issues.length === 0) process.stdout.write(`${file}: ok\n`);
    problems += issues.length;
  }
  if (problems > 0) process.exitCode = 1;
}

async function listEnsembles(): Promise<void> {
  const project = await loadProjectConfig();
  const dir = path.resolve(project.baseDir, project.ensembles_dir);
  const files = await listEnsembleFiles(dir);
  if (files.length === 0)
    process.stdout.write(
      `No ensembles in ${dir}. Create one with colloquy init, or set ensembles_dir in colloquy.yaml.\n`,
    );
  for (const file of files) {
    let description = '';
    try {
      const raw = parseYaml(await readFile(file, 'utf8')) as {
        name?: string;
        description?: string;
      } | null;
      description = raw?.description ?? '';
    } catch {
      description = '(invalid YAML: run colloquy validate)';
    }
    process.stdout.write(
      `${path
        .basename(file)
        .replace(/\.ya?ml$/i, '')
        .padEnd(24)} ${description}\n`,
    );
  }
}

async function listProfiles(): Promise<void> {
  const registry = await loadProjectProfiles();
  if (registry.names().length === 0)
    process.stdout.write(
      'No profiles. Add profiles: to colloquy.yaml (colloquy init writes one).\n',
    );
  for (const name of registry.names()) {
    const profile = registry.get(name);
    process.stdout.write(
      `${name.padEnd(24)} ${`${profile.provider}/${profile.model}`.padEnd(32)} ${registry.source(name)}\n`,
    );
  }
}

const STARTER_CONFIG = `# Colloquy project configuration. Profiles name models; ensembles refer to them by name.
profiles:
  offline:
    provider: scripted
    model: demo
    script:
      - '{"draft": 1, "text": "A first draft."}'
      - '{"draft": 2, "text": "A better draft."}'
  reviewer:
    provider: scripted
    model: reviewer
    script:
      - '{"satisfied": false, "feedback": "Be more specific."}'
      - '{"satisfied": true, "feedback": "Good."}'
ensembles_dir: ensembles
`;

const STARTER_ENSEMBLE = `# A writer and a reviewer take turns until the reviewer is satisfied (offline: scripted profiles).
# Expected outcome: completion_reason: completed, turn_count: 4
name: example
description: A writer and a reviewer converse until the reviewer is satisfied.
default_task: Write a tagline for a tea shop.
agents:
  - name: writer
    model_profile: offline
    depends_on:
      - agent_name: reviewer
        condition: '!state.reviewer.satisfied'
        max_executions: 3
    conversation: { max_turns: 3, triggers_conversation: true }
  - name: reviewer
    model_profile: reviewer
    depends_on:
      - agent_name: writer
        max_executions: 3
    conversation: { max_turns: 3 }
conversation_limits:
  max_total_turns: 10
  timeout_seconds: 60
`;

async function init(): Promise<void> {
  const cwd = process.cwd();
  const targets = [
    path.join(cwd, PROJECT_CONFIG_FILE),
    path.join(cwd, 'ensembles', 'example.yaml'),
  ];
  const existing = targets.filter((target) => existsSync(target));
  if (existing.length > 0) {
    process.stderr.write(
      `Refusing to overwrite ${existing.join(', ')}. Move or delete it first, or edit it by hand.\n`,
    );
    process.exitCode = 1;
    return;
  }
  await mkdir(path.join(cwd, 'ensembles'), { recursive: true });
  await writeFile(targets[0]!, STARTER_CONFIG, { flag: 'wx' });
  await writeFile(targets[1]!, STARTER_ENSEMBLE, { flag: 'wx' });
  process.stdout.write(`Wrote ${targets.join(' and ')}.\nTry: colloquy invoke example\n`);
}

/**
 * Registers the ensemble commands on a commander program.
 *
 * @example
 * ```ts
 * const program = new Command('colloquy');
 * registerEnsembleCommands(program);
 * await program.parseAsync(process.argv);
 * ```
 */
export function registerEnsembleCommands(program: Command): void {
  program
    .command('invoke')
    .description('Run an ensemble (a YAML file, or a name in ensembles_dir)')
    .argument('<ensemble>', 'FILE or NAME')
    .option(
      '--input <text>',
      'the task; "-" reads it from stdin (default: the ensemble\'s default_task)',
    )
    .option('--output <format>', 'rich, json or text (default: rich on a TTY, else text)')
    .option('--inputs <file>', "answers for agents' questions (YAML: answers: { agent: [...] })")
    .option('--resume <runId>', 'continue an interrupted run from its last finished turn')
    .option('--run-id <runId>', 'the id of a new run (default: random)')
    .option(
      '--store <spec>',
      'store of runs: a SQLite file path, sqlite:PATH, dir:PATH, redis://…, postgres://… (default: $COLLOQUY_DB or .colloquy/colloquy.db)',
    )
    .option('--concurrency <n>', 'agents run at once within a step (default 8)')
    .action((target: string, options: InvokeOptions) => invoke(target, options));
  program
    .command('validate')
    .description('Check ensemble files and print every problem as file:line:column')
    .argument('<files...>', 'ensemble YAML files')
    .action((files: string[]) => validate(files));
  program
    .command('list-ensembles')
    .description('List the ensembles in ensembles_dir')
    .action(() => listEnsembles());
  program
    .command('list-profiles')
    .description('List the model profiles (colloquy.yaml and ~/.config/colloquy/profiles.yaml)')
    .action(() => listProfiles());
  program
    .command('init')
    .description('Write a starter colloquy.yaml and ensembles/example.yaml')
    .action(() => init());
}
