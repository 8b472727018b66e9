/**
 * Colloquy's async context, in one AsyncLocalStorage. The SDK calls our models, tools and stores,
 * so nothing of ours is on the stack to pass a call along; only async context follows it. Each
 * layer keeps its own slot here (the agency call's scope, the attempt listener, the lease fences,
 * the signed-in user, the eval case's model) instead of its own AsyncLocalStorage: on Node 20
 * every AsyncLocalStorage in use is copied onto every promise a process makes (about 40 ns an
 * await for each storage, docs/runtime.md), which a server request (some 900 promises) paid once
 * per storage.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A slot of the async context, made once per concept with {@link contextSlot}. */
export interface ContextSlot<T> {
  /** What the slot holds, for messages. */
  readonly name: string;
  /** @internal The slot's key in the context record. */
  readonly key: symbol;
  /** @internal Carries `T`. */
  readonly __type?: T;
}

/** The values of every slot set in the current async context. */
type ContextRecord = Readonly<Record<symbol, unknown>>;

const storage = new AsyncLocalStorage<ContextRecord>();

/** Declares a slot of the async context; the module that owns the concept keeps it. */
export function contextSlot<T>(name: string): ContextSlot<T> {
  return { name, key: Symbol(`colloquy.${name}`) };
}

/** The slot's value in the current async context (undefined outside any {@link runInSlot}). */
export function readSlot<T>(slot: ContextSlot<T>): T | undefined {
  return storage.getStore()?.[slot.key] as T | undefined;
}

/**
 * Runs `work` with `slot` set to `value`; the other slots keep the values of the context it runs
 * in, and `work`'s own async continuations see the same.
 */
export function runInSlot<T, R>(slot: ContextSlot<T>, value: T, work: () => R): R {
  const outer = storage.getStore();
  return storage.run(outer ? { ...outer, [slot.key]: value } : { [slot.key]: value }, work);
}
