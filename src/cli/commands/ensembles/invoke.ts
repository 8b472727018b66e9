/**
 * `colloquy invoke NAME [INPUT]`, taking the input as llm-orc users type it: positional,
 * `--input`/`--input-data`, `-f/--input-file`, or piped stdin. Prints Colloquy's result plus
 * llm-orc's `results`/`metadata` (JSON), and writes llm-orc's artifacts for llm-orc projects.
 * @module
 */
import { existsSync, fstatSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_ENSEMBLES_DIR, PROJECT_CONFIG_FILE } from '../../../defaults.js';
import { ColloquyError, ConfigError } from '../../../errors.js';
import { openStore } from '../../../stores/openStore.js';
import { findEnsembleFile } from '../../../ensembles/load.js';
import type { EnsembleEvent } from '../../../ensembles/events.js';
import type { InputHandler } from '../../../ensembles/inputHandlers.js';
import { runEnsemble } from '../../../ensembles/run.js';
import { resolveTracing } from '../../../tracing/resolve.js';
import { canTraceLocally, createLocalEnsembleTracer } from '../../../ensembles/localTracing.js';
import { llmOrcView, writeArtifacts } from '../../../ensembles/llmorc/results.js';
import { prepareEnsemble } from './profiles.js';
import { printResult, progressReporter } from './progress.js';

/** The options of `colloquy invoke`. */
export interface InvokeOptions {
  input?: string;
  inputData?: string;
  inputFile?: string;
  output?: string;
  outputFormat?: string;
  inputs?: string;
  resume?: string;
  store?: string;
  runId?: string;
  /** The user the run is for (the scope of the ensemble's `memory:`). */
  user?: string;
  concurrency?: string;
  maxConcurrent?: string;
  detailed?: boolean;
  artifacts?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** Whether stdin is a pipe or a file a user redirected (not a terminal, not an inherited socket). */
export function stdinIsPiped(): boolean {
  if (process.stdin.isTTY) return false;
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isFile();
  } catch {
    // No stdin at all (closed descriptor): nothing is piped.
    return false;
  }
}

/**
 * The input of a run, in llm-orc's order of precedence: positional, `--input`/`--input-data`,
 * `--input-file`, piped stdin (`-` reads stdin explicitly); undefined means the default task.
 */
export async function resolveInput(
  positional: string | undefined,
  options: InvokeOptions,
): Promise<string | undefined> {
  const given = [positional, options.input, options.inputData].filter((v) => v !== undefined);
  if (given.length > 1 || (given.length === 1 && options.inputFile))
    throw new ConfigError(
      'Give the input once: as the INPUT argument, --input/--input-data, or --input-file.',
    );
  const text = given[0];
  if (text === '-') return readStdin();
  if (text !== undefined) return text;
  if (options.inputFile) {
    try {
      return await readFile(path.resolve(options.inputFile), 'utf8');
    } catch (error) {
      throw new ConfigError(
        `--input-file ${options.inputFile} could not be read: ${(error as Error).message}. Check the path.`,
      );
    }
  }
  return stdinIsPiped() ? readStdin() : undefined;
}

function outputFormat(options: InvokeOptions): string {
  if (options.output && options.outputFormat && options.output !== options.outputFormat)
    throw new ConfigError('--output and --output-format are the same option; give one.');
  const format = options.output ?? options.outputFormat ?? (process.stdout.isTTY ? 'rich' : 'text');
  if (!['rich', 'json', 'text'].includes(format))
    throw new ConfigError(`--output ${format} is not a format. Use rich, json or text.`);
  return format;
}

function concurrency(options: InvokeOptions): number | undefined {
  const raw = options.maxConcurrent ?? options.concurrency;
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`--max-concurrent ${raw} is not a positive integer.`);
  return value;
}

/** The `--inputs` answers file; an unreadable one is a ConfigError naming the flag and the path. */
async function answersFile(file: string): Promise<InputHandler> {
  const { ScriptedInputHandler } = await import('../../../ensembles/inputHandlers.js');
  try {
    return await ScriptedInputHandler.fromFile(path.resolve(file));
  } catch (error) {
    if (error instanceof ColloquyError) throw error;
    throw new ConfigError(
      `--inputs ${file} could not be read: ${(error as Error).message}. Check the path.`,
      { cause: error },
    );
  }
}

/** Runs `colloquy invoke`. */
export async function invoke(
  target: string,
  positional: string | undefined,
  options: InvokeOptions,
): Promise<void> {
  const cwd = process.cwd();
  // The project config (and its schemas) loads only when there is a colloquy.yaml to read.
  const ensemblesDir = existsSync(path.join(cwd, PROJECT_CONFIG_FILE))
    ? await (async () => {
        const { loadProjectConfig } = await import('../../../models/projectConfig.js');
        const project = await loadProjectConfig({ cwd });
        return path.resolve(project.baseDir, project.ensembles_dir);
      })()
    : path.resolve(cwd, DEFAULT_ENSEMBLES_DIR);
  const file = await findEnsembleFile(target, { cwd, ensemblesDir });
  const { ensemble, profiles, projectDir } = await prepareEnsemble(file, cwd);
  const format = outputFormat(options);
  const maxConcurrent = concurrency(options);
  const input = await resolveInput(positional, options);
  let inputHandler: InputHandler | undefined;
  if (options.inputs) inputHandler = await answersFile(options.inputs);
  else if (process.stdin.isTTY)
    inputHandler = new (await import('../../../ensembles/inputHandlers.js')).TtyInputHandler();
  const store = await openStore(options.store);
  // Traces and the live tree: on a TTY the run's spans drive the same live tree as agencies;
  // off a TTY the plain progress lines stay. Ensemble spans are SDK spans when the run has LLM
  // agents, a terminal or an exporter; a script-only run off a terminal is traced without the
  // SDK (localTracing.ts), and with COLLOQUY_TRACING=off not at all.
  const resolved = resolveTracing();
  const tty = Boolean(process.stderr.isTTY);
  const local = !tty && (!resolved.enabled || canTraceLocally(ensemble, resolved));
  const tracing = local ? undefined : await import('../../../tracing/setup.js');
  const tracer = !local
    ? await (await import('../../../ensembles/tracing.js')).createEnsembleTracer({ store })
    : resolved.enabled
      ? await createLocalEnsembleTracer(resolved, { store })
      : undefined;
  const live =
    tracing && tty
      ? await (
          await import('../../progress/liveProgress.js')
        ).startLiveProgress(tracing.getTraceRecorder())
      : undefined;
  const lines = live ? undefined : progressReporter();
  const progress = {
    onEvent: (event: EnsembleEvent) => {
      tracer?.onEvent(event);
      lines?.onEvent(event);
    },
    stop: () => {
      live?.stop();
      lines?.stop();
    },
  };
  const startedAt = new Date();
  try {
    const result = await runEnsemble(ensemble, {
      input,
      store,
      runId: options.runId,
      resume: options.resume,
      ...(options.user !== undefined ? { userId: options.user } : {}),
      concurrency: maxConcurrent,
      inputHandler,
      profiles,
      onEvent: progress.onEvent,
    });
    progress.stop();
    const completedAt = new Date();
    const view = llmOrcView(result, {
      ensemble: ensemble.name,
      agents: ensemble.agents.map((agent) => agent.name),
      input: input ?? ensemble.default_task ?? '',
      startedAt,
      completedAt,
    });
    const json = { ...result, ...view };
    if (format === 'json') process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    else await printResult(result, format, view, options.detailed ?? true);
    if (options.artifacts ?? projectDir !== undefined) {
      const relative = projectDir
        ? path.relative(path.join(projectDir, '.llm-orc', 'ensembles'), path.dirname(file))
        : '';
      const folder = relative.startsWith('..') ? '' : relative.split(path.sep).join('/');
      const dir = await writeArtifacts({
        projectDir: projectDir ?? cwd,
        ensemble: ensemble.name,
        folder: folder || undefined,
        json,
        view,
        at: startedAt,
      });
      process.stderr.write(`artifacts: ${dir}\n`);
    }
    if (result.completion_reason === 'error' || view.status !== 'completed') process.exitCode = 1;
  } finally {
    await tracer?.finish();
    progress.stop();
    await tracing?.flushTracing();
    await store.close();
  }
}
