/**
 * Shared fixtures of the store conformance suite: item factories and the per-test store handle.
 * @module
 */
import { expect } from 'vitest';
import type { ThreadItem } from '../../stores/item.js';
import type { ThreadStore } from '../../stores/types.js';

/** Gives each test the store created for it by `beforeEach`. */
export interface StoreHandle {
  (): ThreadStore;
}

/** A small user-message item whose text names it, e.g. `item('a', 0)` → id `a-0`, text `a 0`. */
export function item(prefix: string, n: number): ThreadItem {
  return { id: `${prefix}-${n}`, item: { role: 'user', content: `${prefix} ${n}` } };
}

/** `count` items `prefix-start` … `prefix-(start+count-1)`. */
export function items(prefix: string, count: number, start = 0): ThreadItem[] {
  return Array.from({ length: count }, (_, i) => item(prefix, start + i));
}

/** The ids of some items, to compare reads compactly. */
export function ids(list: ThreadItem[]): string[] {
  return list.map((i) => i.id);
}

/** Appends `list` to a thread, reading its version first; returns the new version. */
export async function appendAll(
  store: ThreadStore,
  threadId: string,
  list: ThreadItem[],
  chatId?: string | null,
): Promise<number> {
  const current = (await store.getThread(threadId))?.version ?? 0;
  return store.append(threadId, list, { expectedVersion: current, chatId });
}

/** Asserts that a promise rejects with a Colloquy error of the given stable code. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected a rejection with code ${code}`).toBeInstanceOf(Error);
  expect((error as { code?: unknown }).code).toBe(code);
}
