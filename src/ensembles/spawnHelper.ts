/**
 * A small Node process that spawns script agents for this one. Forking from a large process
 * (an agency or an ensemble run holds 100+ MiB) copies its page tables on every spawn, about
 * 18 ms of CPU a script on a 2-core machine; the helper is a bare `node -e` started once per
 * process, so each fork copies a few MiB instead. It speaks over an IPC channel (advanced
 * serialization, output as bytes): spawn, stdin, output chunks, exit and close, and closing the
 * output pipes. The caller still kills process groups itself (the pids are real). When the helper
 * cannot start or dies, {@link helperSpawn} returns `undefined` and the caller spawns directly;
 * the reason is written to stderr once. `COLLOQUY_SPAWN_HELPER=0` turns the helper off.
 * @module
 */
import { readEnv } from '../env.js';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { HELPER_SOURCE } from './spawnHelperSource.js';

/** What a script run through the helper looks like to the caller (a subset of ChildProcess). */
export interface HelperChild extends EventEmitter {
  pid?: number | undefined;
  stdout: EventEmitter & { destroy(): void };
  stderr: EventEmitter & { destroy(): void };
  stdin: EventEmitter & { end(data: string): void };
}

/** What to spawn. */
export interface HelperSpawnRequest {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

type Message =
  | { type: 'spawned'; id: number; pid: number }
  | { type: 'error'; id: number; message: string; code?: string }
  | { type: 'stdout' | 'stderr'; id: number; data: Uint8Array }
  | { type: 'exit' | 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

let enabled = readEnv('COLLOQUY_SPAWN_HELPER') !== '0';
let helper: ChildProcess | undefined;
let broken: string | undefined;
let nextId = 0;
const running = new Map<number, RemoteChild>();

/** Turns the helper on or off for this process (benches compare both; tests cover both). */
export function useSpawnHelper(on: boolean): void {
  enabled = on;
  if (!on) stopSpawnHelper();
}

/** The helper's pid while it runs (benches read its CPU time). */
export function spawnHelperPid(): number | undefined {
  return helper?.pid;
}

/** Stops the helper (scripts it started keep running until their callers kill them). */
export function stopSpawnHelper(): void {
  helper?.kill();
  helper = undefined;
}

class RemoteChild extends EventEmitter implements HelperChild {
  pid?: number | undefined;
  readonly stdout: EventEmitter & { destroy(): void };
  readonly stderr: EventEmitter & { destroy(): void };
  readonly stdin: EventEmitter & { end(data: string): void };

  constructor(readonly id: number) {
    super();
    const output = () =>
      Object.assign(new EventEmitter(), { destroy: () => send({ type: 'destroy', id }) });
    this.stdout = output();
    this.stderr = output();
    this.stdin = Object.assign(new EventEmitter(), {
      end: (data: string) => send({ type: 'stdin', id, data }),
    });
  }
}

function send(message: object): void {
  if (helper?.connected) helper.send(message);
}

function giveUp(reason: string): void {
  if (broken === undefined)
    process.stderr.write(
      `colloquy: the script spawn helper stopped (${reason}); scripts are spawned directly.\n`,
    );
  broken = reason;
  helper = undefined;
  for (const child of running.values())
    child.emit('error', new Error(`the script spawn helper stopped (${reason})`));
  running.clear();
}

function onMessage(message: Message): void {
  const child = running.get(message.id);
  if (!child) return;
  switch (message.type) {
    case 'spawned':
      child.pid = message.pid;
      child.emit('spawn');
      return;
    case 'error':
      running.delete(message.id);
      if (running.size === 0) unref();
      return void child.emit(
        'error',
        Object.assign(new Error(message.message), { code: message.code }),
      );
    case 'stdout':
    case 'stderr':
      return void child[message.type].emit('data', Buffer.from(message.data));
    case 'exit':
      return void child.emit('exit', message.code, message.signal);
    case 'close':
      running.delete(message.id);
      if (running.size === 0) unref();
      return void child.emit('close', message.code, message.signal);
  }
}

function unref(): void {
  helper?.unref();
  (helper?.channel as { unref?: () => void } | undefined)?.unref?.();
}

function start(): ChildProcess | undefined {
  if (helper || broken !== undefined) return helper;
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  try {
    const started = spawn(process.execPath, ['-e', HELPER_SOURCE], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      env,
    });
    started.on('message', (message) => onMessage(message as Message));
    started.on('error', (error) => giveUp(error.message));
    started.on('exit', (code, signal) => {
      if (helper === started) giveUp(`it exited with ${signal ?? `code ${code}`}`);
    });
    helper = started;
    unref();
    return helper;
  } catch (error) {
    giveUp((error as Error).message);
    return undefined;
  }
}

/**
 * Spawns a script through the helper as the leader of its own process group, or returns
 * `undefined` when the helper is off or broken (the caller then spawns directly).
 */
export function helperSpawn(request: HelperSpawnRequest): HelperChild | undefined {
  if (!enabled || !start() || !helper?.connected) return undefined;
  const id = ++nextId;
  const child = new RemoteChild(id);
  running.set(id, child);
  helper.ref();
  (helper.channel as { ref?: () => void } | undefined)?.ref?.();
  send({ type: 'spawn', id, ...request });
  return child;
}
