/**
 * A small Node process that spawns script agents for this one. Forking from a large process
 * (an agency or an ensemble run holds 100+ MiB) copies its page tables on every spawn, about
 * 18 ms of CPU a script on a 2-core machine; the helper is a bare `node -e` started once per
 * process, so each fork copies a few MiB instead. It speaks over an IPC channel (advanced
 * serialization, output as bytes): spawn, stdin, output chunks, exit and close, and closing the
 * output pipes. The caller still kills process groups itself (the pids are real). When the helper
 * cannot start or dies, {@link helperSpawn} returns `undefined` and the caller spawns directly;
 * the reason is written to stderr once. Each runtime owns one helper ({@link spawnHelperOf}). `COLLOQUY_SPAWN_HELPER=0` turns the helper off.
 * @module
 */
import { readEnv } from '../env.js';
import { defaultRuntime, defineRuntimeSlot, type ColloquyRuntime } from '../runtime.js';
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

/**
 * The spawn helper of one runtime: the helper process, the scripts it runs for the caller, and
 * whether it is on (`COLLOQUY_SPAWN_HELPER` of the runtime's environment) or broken.
 */
export class SpawnHelper {
  #enabled: boolean;
  #helper: ChildProcess | undefined;
  #broken: string | undefined;
  #nextId = 0;
  readonly #running = new Map<number, RemoteChild>();

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.#enabled = readEnv('COLLOQUY_SPAWN_HELPER', env) !== '0';
  }

  /** Turns the helper on or off (benches compare both; tests cover both). */
  setEnabled(on: boolean): void {
    this.#enabled = on;
    if (!on) this.stop();
  }

  /** The helper's pid while it runs (benches read its CPU time). */
  get pid(): number | undefined {
    return this.#helper?.pid;
  }

  /** Stops the helper (scripts it started keep running until their callers kill them). */
  stop(): void {
    this.#helper?.kill();
    this.#helper = undefined;
  }

  /**
   * Spawns a script through the helper as the leader of its own process group, or returns
   * `undefined` when the helper is off or broken (the caller then spawns directly).
   */
  spawn(request: HelperSpawnRequest): HelperChild | undefined {
    const helper = this.#enabled ? this.#start() : undefined;
    if (!helper?.connected) return undefined;
    const id = ++this.#nextId;
    const child = new RemoteChild(id, (message) => this.#send(message));
    this.#running.set(id, child);
    helper.ref();
    (helper.channel as { ref?: () => void } | undefined)?.ref?.();
    this.#send({ type: 'spawn', id, ...request });
    return child;
  }

  #send(message: object): void {
    if (this.#helper?.connected) this.#helper.send(message);
  }

  #giveUp(reason: string): void {
    if (this.#broken === undefined)
      process.stderr.write(
        `colloquy: the script spawn helper stopped (${reason}); scripts are spawned directly.\n`,
      );
    this.#broken = reason;
    this.#helper = undefined;
    for (const child of this.#running.values())
      child.emit('error', new Error(`the script spawn helper stopped (${reason})`));
    this.#running.clear();
  }

  #onMessage(message: Message): void {
    const child = this.#running.get(message.id);
    if (!child) return;
    switch (message.type) {
      case 'spawned':
        child.pid = message.pid;
        child.emit('spawn');
        return;
      case 'error':
        this.#finished(message.id);
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
        this.#finished(message.id);
        return void child.emit('close', message.code, message.signal);
    }
  }

  #finished(id: number): void {
    this.#running.delete(id);
    if (this.#running.size === 0) this.#unref();
  }

  #unref(): void {
    this.#helper?.unref();
    (this.#helper?.channel as { unref?: () => void } | undefined)?.unref?.();
  }

  #start(): ChildProcess | undefined {
    if (this.#helper || this.#broken !== undefined) return this.#helper;
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    try {
      const started = spawn(process.execPath, ['-e', HELPER_SOURCE], {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        serialization: 'advanced',
        env,
      });
      started.on('message', (message) => this.#onMessage(message as Message));
      started.on('error', (error) => this.#giveUp(error.message));
      started.on('exit', (code, signal) => {
        if (this.#helper === started) this.#giveUp(`it exited with ${signal ?? `code ${code}`}`);
      });
      this.#helper = started;
      this.#unref();
      return started;
    } catch (error) {
      this.#giveUp((error as Error).message);
      return undefined;
    }
  }
}

class RemoteChild extends EventEmitter implements HelperChild {
  pid?: number | undefined;
  readonly stdout: EventEmitter & { destroy(): void };
  readonly stderr: EventEmitter & { destroy(): void };
  readonly stdin: EventEmitter & { end(data: string): void };

  constructor(
    readonly id: number,
    send: (message: object) => void,
  ) {
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

/** The spawn helper of a runtime, stopped when the runtime closes. */
const SPAWN_HELPER = defineRuntimeSlot(
  'ensembles.spawnHelper',
  (runtime) => new SpawnHelper(runtime.env),
  (helper) => helper.stop(),
);

/** The spawn helper of `runtime` (default: the default runtime's, one per process). */
export function spawnHelperOf(runtime: ColloquyRuntime = defaultRuntime()): SpawnHelper {
  return runtime.use(SPAWN_HELPER);
}

/** Turns the default runtime's helper on or off (benches compare both; tests cover both). */
export function useSpawnHelper(on: boolean): void {
  spawnHelperOf().setEnabled(on);
}

/** The default runtime's helper pid while it runs (benches read its CPU time). */
export function spawnHelperPid(): number | undefined {
  return spawnHelperOf().pid;
}

/** Stops the default runtime's helper (scripts it started keep running until killed). */
export function stopSpawnHelper(): void {
  spawnHelperOf().stop();
}

/**
 * Spawns a script through the helper of `runtime` (default: the default runtime's), or returns
 * `undefined` when the helper is off or broken (the caller then spawns directly).
 */
export function helperSpawn(
  request: HelperSpawnRequest,
  runtime: ColloquyRuntime = defaultRuntime(),
): HelperChild | undefined {
  return spawnHelperOf(runtime).spawn(request);
}
