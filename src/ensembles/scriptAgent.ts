/**
 * Script agents, with one protocol everywhere: llm-orc's, with Colloquy's fields (see
 * `llmorc/scriptProtocol.ts`: one JSON object on stdin, `INPUT_DATA`/`INPUT_TEXT`/
 * `AGENT_PARAMETERS` in the environment, any stdout kept). Scripts are spawned as the leader of
 * their own process group, so that a timeout kills the script and everything it started; the run
 * stops waiting at the timeout even when a descendant that left the group keeps stdout open.
 * Bundled primitives run in-process.
 * @module
 */
import type { ColloquyRuntime } from '../runtime.js';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ColloquyError } from '../errors.js';
import { llmOrcDirOf } from './llmorc/project.js';
import { isColloquyStdin, parseScriptOutput, scriptInput } from './llmorc/scriptProtocol.js';
import { resolveScript, splitCommand } from './scriptResolve.js';
import { helperSpawn } from './spawnHelper.js';
import type { HelperChild } from './spawnHelper.js';
import type { ResolvedScript, ScriptProtocol } from './scriptResolve.js';

export { splitCommand };

/** A question a script asks the user (answered by the run's InputHandler). */
export interface ScriptAgentRequest {
  /** Only `input` is defined. */
  type?: 'input';
  prompt: string;
  /** Where the answer goes in the agent's output (default `user_input`). */
  key?: string;
}

/** A script's reply as read: `data` is the agent's output (see `parseScriptOutput`). */
export interface ScriptAgentReply {
  success: boolean;
  data?: Record<string, unknown>;
  error?: string;
  agent_requests?: ScriptAgentRequest[];
}

/** Options of {@link runScriptAgent}. */
export interface ScriptAgentOptions {
  /** The agent's name, for messages. */
  agent: string;
  /** A path to a script (with arguments after it), or an inline bash script. */
  command: string;
  /** Directory that relative script paths resolve from, and the working directory (default cwd). */
  baseDir?: string;
  /** The JSON written to stdin. */
  stdin: unknown;
  /** Kill the process group after this many milliseconds. */
  timeoutMs: number;
  /** Aborting kills the process group too. */
  signal?: AbortSignal;
  /** Called with the pid once spawned (tests use it). */
  onSpawn?: (pid: number) => void;
  /** @deprecated There is one protocol; this is ignored. */
  protocol?: ScriptProtocol;
  /** The project directory holding `.llm-orc/` (searched for scripts after `baseDir`). */
  projectDir?: string;
  /** The working directory (default: the caller's in an llm-orc project, else `baseDir`). */
  cwd?: string;
  /** Variables added to the script's environment (llm-orc's `INPUT_DATA`, ...). */
  env?: Record<string, string>;
  /** Answers the questions of interactive primitives (`get_user_input`, `confirm_action`). */
  ask?: (prompt: string) => Promise<string>;
  /** After the script exits, how long to wait for its output to close (default 500 ms). */
  exitGraceMs?: number;
  /** The runtime whose spawn helper starts the script (default: the default runtime). */
  runtime?: ColloquyRuntime;
}

/** A finished script run. */
export interface ScriptAgentRun {
  reply: ScriptAgentReply;
  stderr: string;
  /** The raw stdout (trimmed), llm-orc's `response`. */
  stdout: string;
}

/** An agent failed: bad reply, non-zero exit, timeout, `success: false`, or a model error. */
export class AgentRunError extends ColloquyError {
  readonly agent: string;
  readonly stderr: string | undefined;
  /** What the agent printed before failing, when it printed an object (llm-orc `success: false`). */
  readonly output: Record<string, unknown> | undefined;

  constructor(
    agent: string,
    message: string,
    options: { stderr?: string; cause?: unknown; output?: Record<string, unknown> } = {},
  ) {
    super('ENSEMBLE_RUN_ERROR', `Agent "${agent}" failed: ${message}`, { cause: options.cause });
    this.agent = agent;
    this.stderr = options.stderr;
    this.output = options.output;
  }
}

const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/**
 * The program and arguments to spawn for a script field (Colloquy protocol, relative to
 * `baseDir`). Throws when it names a file that does not exist.
 */
export function resolveCommand(command: string, baseDir: string): { file: string; args: string[] } {
  const resolved = resolveScript(command, { baseDir });
  if (resolved.kind === 'primitive')
    throw new ColloquyError(
      'ENSEMBLE_INVALID',
      `"${command}" names the bundled primitive ${resolved.name}, which runs in-process and has no command.`,
    );
  return { file: resolved.file, args: resolved.args };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

/**
 * Fills in the protocol's defaults: a script whose `baseDir` lies in a `.llm-orc/` directory is
 * searched for in that project and runs in the caller's directory (as llm-orc runs it); and
 * Colloquy-shaped stdin gets llm-orc's fields and environment (see `scriptInput`).
 */
export function withLlmOrcDefaults(options: ScriptAgentOptions): ScriptAgentOptions {
  const llmOrcDir = options.baseDir ? llmOrcDirOf(options.baseDir) : undefined;
  const projectDir = options.projectDir ?? (llmOrcDir ? path.dirname(llmOrcDir) : undefined);
  const converted = scriptInput(options.agent, options.stdin);
  return {
    ...options,
    protocol: 'llm-orc',
    ...(projectDir ? { projectDir } : {}),
    // llm-orc runs scripts in the directory it was started from.
    ...(llmOrcDir ? { cwd: options.cwd ?? process.cwd() } : {}),
    stdin: converted.stdin,
    ...(Object.keys(converted.env).length || options.env
      ? { env: { ...converted.env, ...options.env } }
      : {}),
  };
}

async function runPrimitive(options: ScriptAgentOptions, name: string): Promise<ScriptAgentRun> {
  const stdin =
    options.stdin && typeof options.stdin === 'object' && !Array.isArray(options.stdin)
      ? (options.stdin as Record<string, unknown>)
      : {};
  // A Colloquy-protocol agent's `config` holds the primitive's parameters.
  const config =
    isColloquyStdin(stdin) && stdin.config
      ? { AGENT_PARAMETERS: JSON.stringify(stdin.config) }
      : {};
  const { PRIMITIVES } = await import('./primitives/registry.js');
  const result = await PRIMITIVES[name]!({
    stdin,
    env: { ...process.env, ...config, ...options.env },
    cwd: options.cwd ?? options.baseDir ?? process.cwd(),
    ask: options.ask,
  });
  return finishReply(options, JSON.stringify(result, null, 2), '');
}

/** Turns a finished script's stdout into a reply (see `parseScriptOutput`). */
function finishReply(options: ScriptAgentOptions, stdout: string, stderr: string): ScriptAgentRun {
  const read = parseScriptOutput(stdout);
  if (read.failure !== undefined)
    throw new AgentRunError(
      options.agent,
      `it reported "success": false: ${read.failure}. It printed: ${shown(read.response)}`,
      { stderr, output: read.output },
    );
  return {
    reply: {
      success: true,
      data: read.output,
      ...(read.agentRequests !== undefined
        ? { agent_requests: read.agentRequests as ScriptAgentRequest[] }
        : {}),
    },
    stderr,
    stdout: read.response,
  };
}

/** What a script printed, cut for a message. */
function shown(text: string): string {
  if (text === '') return '(nothing)';
  return JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text);
}

/**
 * Runs a script agent once. Rejects with {@link AgentRunError} on a timeout (after killing the
 * whole process group), a non-zero exit, a reply the protocol rejects, or `success: false`; and
 * with a `ScriptNotFoundError` (naming every place searched) when the script file does not exist.
 *
 * @example
 * ```ts
 * const { reply } = await runScriptAgent({ agent: 'count', command: './count.js', stdin: { input: 'hi' }, timeoutMs: 5000 });
 * ```
 */
export async function runScriptAgent(given: ScriptAgentOptions): Promise<ScriptAgentRun> {
  const options = withLlmOrcDefaults(given);
  const baseDir = options.baseDir ?? process.cwd();
  const resolved: ResolvedScript = resolveScript(options.command, {
    baseDir,
    projectDir: options.projectDir,
    protocol: options.protocol,
  });
  if (resolved.kind === 'primitive') return runPrimitive(options, resolved.name);
  return spawnScript(options, resolved.file, resolved.args);
}

function spawnScript(
  options: ScriptAgentOptions,
  file: string,
  args: string[],
): Promise<ScriptAgentRun> {
  const { agent } = options;
  const cwd = options.cwd ?? options.baseDir ?? process.cwd();
  return new Promise((resolve, reject) => {
    const env = options.env ? { ...process.env, ...options.env } : process.env;
    // Through the small spawn helper process when it runs (a fork from this large process costs
    // far more), else directly; either way the script leads its own process group.
    const child: HelperChild =
      helperSpawn({ file, args, cwd, env }, options.runtime) ??
      spawn(file, args, {
        cwd,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        env,
      });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    let failure: AgentRunError | undefined;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    let exited = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    const graceMs = options.exitGraceMs ?? 500;
    const stderrText = () => Buffer.concat(stderr).toString('utf8');
    const fail = (message: string) => {
      failure ??= new AgentRunError(agent, message, { stderr: stderrText() });
      killGroup(child.pid);
      // Stop waiting now: a descendant outside the group may keep the pipes open forever.
      if (exited) finish(exitCode, exitSignal);
    };
    const timer = setTimeout(
      () =>
        fail(
          `it did not finish within ${options.timeoutMs / 1000}s and was killed with its process group. Raise timeout_seconds or make the script faster.`,
        ),
      options.timeoutMs,
    );
    const onAbort = () =>
      fail(
        'the run was stopped (timeout or cancellation) and the script was killed with its process group.',
      );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      // Background children left in the script's group go with it.
      killGroup(child.pid);
      if (failure) return reject(failure);
      const errText = stderrText();
      if (code !== 0) {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const printed = Buffer.concat(stdout).toString('utf8').trim();
        return reject(
          new AgentRunError(
            agent,
            `${file} ${how}${errText ? `; stderr: ${errText.trim().slice(-500)}` : ''}` +
              `${printed ? `; it printed: ${shown(printed)}` : ''}. Fix the script so that it exits 0.`,
            { stderr: errText },
          ),
        );
      }
      try {
        resolve(finishReply(options, Buffer.concat(stdout).toString('utf8'), errText));
      } catch (error) {
        reject(error);
      }
    };
    child.on('error', (error) => {
      failure ??= new AgentRunError(
        agent,
        `could not start ${file}: ${error.message}. Check that script names an existing executable (chmod +x) or a command on PATH.`,
        { cause: error },
      );
      finish(null, null);
    });
    const spawned = () => {
      if (child.pid === undefined) return;
      // Failed (timed out, aborted) before the helper reported the pid: kill it now.
      if (failure) killGroup(child.pid);
      options.onSpawn?.(child.pid);
    };
    if (child.pid !== undefined) spawned();
    else child.once('spawn', spawned);
    const collect = (chunks: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES)
        return fail(
          `it wrote more than ${MAX_OUTPUT_BYTES} bytes; write less, or write files and return their paths.`,
        );
      chunks.push(chunk);
      // Output still flowing after the exit: give it another grace period.
      if (grace) grace.refresh();
    };
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    child.on('exit', (code, signal) => {
      exited = true;
      exitCode = code;
      exitSignal = signal;
      if (failure) return finish(code, signal);
      // Normally 'close' follows at once; a descendant holding stdout must not hold the run.
      grace = setTimeout(() => finish(code, signal), graceMs);
    });
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) =>
      finish(exited ? exitCode : code, exited ? exitSignal : signal),
    );
    // A script that exits without reading its input breaks the pipe (EPIPE): its exit code and
    // stderr say what happened, so the pipe's own error adds nothing.
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(options.stdin));
  });
}
