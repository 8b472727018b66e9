/**
 * The runtime: the state Colloquy keeps beside the objects you make (agencies, stores, servers),
 * in one object instead of module-level maps. It holds the default logger, the tracing recorder,
 * in-process leases, per-store chat gates, the compiled-condition cache, the script spawn helper,
 * cassettes being recorded and the server's stopped calls, each made on first use.
 *
 * `Agency`, `runEnsemble` and `createApp` take a `runtime` option; without one they use
 * {@link defaultRuntime}, made once per process. Two runtimes share none of this in-process
 * state, so two agencies with their own runtimes never wait on each other's chat gates (leases a
 * store keeps in its file, as SQLite's, still coordinate them). Tracing stays process-wide, as
 * the SDK's trace provider is: it lives on the default runtime.
 *
 * Each module that keeps state declares a {@link RuntimeSlot} (a name and a maker) and reads it
 * with {@link ColloquyRuntime.use}, so this file depends on nothing above it.
 * @module
 */

/** A piece of runtime state: made by `create` on first use, stopped by `dispose` on close. */
export interface RuntimeSlot<T> {
  /** A unique name (`area.what`), shared by every copy of Colloquy in the process. */
  readonly name: string;
  /** Makes the value for a runtime. */
  readonly create: (runtime: ColloquyRuntime) => T;
  /** Stops the value when the runtime closes (optional). */
  readonly dispose?: (value: T) => void | Promise<void>;
}

/**
 * Declares a piece of runtime state. Call it at module level: the slot is a description, and
 * each runtime makes its own value.
 *
 * @example
 * ```ts
 * const counters = defineRuntimeSlot('example.counters', () => new Map<string, number>());
 * const runtime = createRuntime();
 * runtime.use(counters).set('calls', 1);
 * ```
 */
export function defineRuntimeSlot<T>(
  name: string,
  create: (runtime: ColloquyRuntime) => T,
  dispose?: (value: T) => void | Promise<void>,
): RuntimeSlot<T> {
  return { name, create, ...(dispose ? { dispose } : {}) };
}

/** Options of {@link createRuntime}. Every field is optional. */
export interface RuntimeOptions {
  /**
   * The environment the runtime reads `COLLOQUY_*` variables from (default `process.env`, read
   * when a value is first needed).
   */
  env?: NodeJS.ProcessEnv;
  /** Values to start slots with, by slot name (e.g. `{ logger: myPinoLogger }`). */
  values?: Readonly<Record<string, unknown>>;
}

/** The state of one Colloquy application. Make one with {@link createRuntime}. */
export class ColloquyRuntime {
  /** The environment this runtime reads its variables from. */
  readonly env: NodeJS.ProcessEnv;
  readonly #values = new Map<string, unknown>();
  readonly #slots = new Map<string, RuntimeSlot<unknown>>();

  constructor(options: RuntimeOptions = {}) {
    this.env = options.env ?? process.env;
    for (const [name, value] of Object.entries(options.values ?? {})) this.#values.set(name, value);
  }

  /** The slot's value in this runtime, made on first use. */
  use<T>(slot: RuntimeSlot<T>): T {
    if (!this.#values.has(slot.name)) {
      const value = slot.create(this);
      this.#values.set(slot.name, value);
      this.#slots.set(slot.name, slot as RuntimeSlot<unknown>);
      return value;
    }
    return this.#values.get(slot.name) as T;
  }

  /** The slot's value if it was made, else undefined (nothing is made). */
  peek<T>(slot: RuntimeSlot<T>): T | undefined {
    return this.#values.get(slot.name) as T | undefined;
  }

  /** Replaces the slot's value (the previous one is not disposed). */
  set<T>(slot: RuntimeSlot<T>, value: T): void {
    this.#values.set(slot.name, value);
    this.#slots.set(slot.name, slot as RuntimeSlot<unknown>);
  }

  /** Forgets the slot's value (the next {@link use} makes a new one). */
  delete<T>(slot: RuntimeSlot<T>): void {
    this.#values.delete(slot.name);
    this.#slots.delete(slot.name);
  }

  /** Stops what the runtime started (the spawn helper, exporters) and forgets every value. */
  async close(): Promise<void> {
    const slots = [...this.#slots.entries()];
    const values = new Map(this.#values);
    this.#values.clear();
    this.#slots.clear();
    for (const [name, slot] of slots) await slot.dispose?.(values.get(name));
  }
}

/**
 * Makes a runtime of its own: state that two applications in one process must not share.
 *
 * @example
 * ```ts
 * const runtime = createRuntime();
 * const agency = new Agency({ entryPoints: [helper], runtime });
 * await runEnsemble(ensemble, { runtime });
 * await runtime.close();
 * ```
 */
export function createRuntime(options: RuntimeOptions = {}): ColloquyRuntime {
  return new ColloquyRuntime(options);
}

/**
 * The default runtime lives on globalThis, so that every copy of Colloquy in a process (the
 * CLI's and the one a user's module loaded) shares one logger and one tracing recorder, as they
 * share the SDK's trace provider.
 */
const DEFAULT_RUNTIME = Symbol.for('colloquy.defaultRuntime');
const holder = globalThis as { [DEFAULT_RUNTIME]?: ColloquyRuntime };

/** The runtime used when none is passed, made on first use (one per process). */
export function defaultRuntime(): ColloquyRuntime {
  holder[DEFAULT_RUNTIME] ??= new ColloquyRuntime();
  return holder[DEFAULT_RUNTIME];
}
