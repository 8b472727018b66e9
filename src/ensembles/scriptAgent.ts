/**
 * Script agents: an executable that reads one JSON object on stdin,
 * `{ input, context, conversation_state }`, and writes one on stdout,
 * `{ success, data, error?, agent_requests? }`. Spawned without a shell, as the leader of its own
 * process group, so that a timeout kills the script and everything it started.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ColloquyError } from '../errors.js';

/** A question a script asks the user (answered by the run's InputHandler). */
export interface ScriptAgentRequest {
  /** Only `input` is defined. */
  type?: 'input';
  prompt: string;
  /** Where the answer goes in the agent's output (default `user_input`). */
  key?: string;
}

/** What a script writes on stdout. */
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
  /** A command line (no shell: split on spaces, `'` and `"` quote) or a path to an executable. */
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
}

/** A finished script run. */
export interface ScriptAgentRun {
  reply: ScriptAgentReply;
  stderr: string;
}

/** An agent failed: bad reply, non-zero exit, timeout, `success: false`, or a model error. */
export class AgentRunError extends ColloquyError {
  readonly agent: string;
  readonly stderr: string | undefined;

  constructor(agent: string, message: string, options: { stderr?: string; cause?: unknown } = {}) {
    super('ENSEMBLE_RUN_ERROR', `Agent "${agent}" failed: ${message}`, { cause: options.cause });
    this.agent = agent;
    this.stderr = options.stderr;
  }
}

const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
const INTERPRETERS: Record<string, string[]> = {
  '.js': [process.execPath],
  '.mjs': [process.execPath],
  '.cjs': [process.execPath],
  '.py': ['python3'],
};

/** Splits a command line into words; `'...'` and `"..."` group words (no escapes, no shell). */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of command.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

/** The program and arguments to spawn for a script field. */
export function resolveCommand(command: string, baseDir: string): { file: string; args: string[] } {
  const [first, ...rest] = splitCommand(command);
  if (!first)
    throw new ColloquyError(
      'ENSEMBLE_INVALID',
      'A script agent has an empty script. Set script to a command or a path.',
    );
  const local = path.resolve(baseDir, first);
  const isPath = first.includes('/') || first.includes(path.sep) || existsSync(local);
  if (!isPath) return { file: first, args: rest };
  const interpreter = INTERPRETERS[path.extname(local).toLowerCase()];
  return interpreter
    ? { file: interpreter[0]!, args: [...interpreter.slice(1), local, ...rest] }
    : { file: local, args: rest };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

function parseReply(agent: string, stdout: string, stderr: string): ScriptAgentReply {
  let reply: unknown;
  try {
    reply = JSON.parse(stdout);
  } catch {
    const shown = stdout.trim() === '' ? '(nothing)' : JSON.stringify(stdout.slice(0, 200));
    throw new AgentRunError(
      agent,
      `its stdout is not JSON: ${shown}. A script agent must print one JSON object {"success": true, "data": {...}}.`,
      { stderr },
    );
  }
  const object = reply as Partial<ScriptAgentReply> | null;
  if (
    !object ||
    typeof object !== 'object' ||
    Array.isArray(object) ||
    typeof object.success !== 'boolean'
  ) {
    throw new AgentRunError(
      agent,
      `its reply ${JSON.stringify(reply).slice(0, 200)} has no boolean "success". Print {"success": true, "data": {...}}.`,
      { stderr },
    );
  }
  if (
    object.data !== undefined &&
    (typeof object.data !== 'object' || object.data === null || Array.isArray(object.data))
  ) {
    throw new AgentRunError(
      agent,
      `its "data" is ${JSON.stringify(object.data).slice(0, 100)}, not an object. Wrap it, e.g. {"data": {"value": ...}}.`,
      { stderr },
    );
  }
  return object as ScriptAgentReply;
}

/**
 * Runs a script agent once. Rejects with {@link AgentRunError} on a timeout (after killing the
 * whole process group), a non-zero exit, a reply that is not JSON, or `success: false`.
 *
 * @example
 * ```ts
 * const { reply } = await runScriptAgent({ agent: 'count', command: './count.js', stdin: { input: 'hi' }, timeoutMs: 5000 });
 * ```
 */
export function runScriptAgent(options: ScriptAgentOptions): Promise<ScriptAgentRun> {
  const { agent } = options;
  const baseDir = options.baseDir ?? process.cwd();
  const { file, args } = resolveCommand(options.command, baseDir);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: baseDir,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    let failure: AgentRunError | undefined;
    let settled = false;
    const stderrText = () => Buffer.concat(stderr).toString('utf8');
    const fail = (message: string) => {
      failure ??= new AgentRunError(agent, message, { stderr: stderrText() });
      killGroup(child.pid);
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
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      if (failure) return reject(failure);
      const errText = stderrText();
      if (code !== 0) {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        return reject(
          new AgentRunError(
            agent,
            `${file} ${how}${errText ? `; stderr: ${errText.trim().slice(-500)}` : ''}. Fix the script so it exits 0 after printing its JSON reply.`,
            { stderr: errText },
          ),
        );
      }
      try {
        const reply = parseReply(agent, Buffer.concat(stdout).toString('utf8'), errText);
        if (!reply.success) {
          return reject(
            new AgentRunError(
              agent,
              `it replied success: false: ${reply.error ?? '(no error message)'}`,
              { stderr: errText },
            ),
          );
        }
        resolve({ reply, stderr: errText });
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
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const collect = (chunks: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES)
        return fail(
          `it wrote more than ${MAX_OUTPUT_BYTES} bytes; write less, or write files and return their paths.`,
        );
      chunks.push(chunk);
    };
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    // After a kill, 'exit' is enough: a descendant that escaped the group may hold the pipes open.
    child.on('exit', (code, signal) => (failure ? finish(code, signal) : undefined));
    child.on('close', finish);
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(options.stdin));
  });
}
