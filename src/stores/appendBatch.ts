/**
 * Appends to several threads: in one transaction when the store offers `appendMany`, else one
 * `append` per thread (each atomic on its own).
 * @module
 */
import { StoreError } from '../errors.js';
import type { AppendBatchEntry, ThreadStore } from './types.js';

/**
 * Appends every entry of `batch` and returns the new versions, in order. With `appendMany` it is
 * all or nothing; without, entries are appended in order and a `ConflictError` stops at the first
 * stale one (the entries before it stay written).
 *
 * @example
 * ```ts
 * const [a, b] = await appendBatch(store, [
 *   { threadId: 'chat-1::A', items: fromA, options: { expectedVersion: 4, chatId: 'chat-1' } },
 *   { threadId: 'chat-1::A::B', items: fromB, options: { expectedVersion: 0, chatId: 'chat-1' } },
 * ]);
 * ```
 */
export async function appendBatch(
  store: ThreadStore,
  batch: readonly AppendBatchEntry[],
): Promise<number[]> {
  const seen = new Set<string>();
  for (const { threadId } of batch) {
    if (seen.has(threadId))
      throw new StoreError(
        `appendBatch: thread "${threadId}" appears twice in one batch. Merge its items into one entry.`,
      );
    seen.add(threadId);
  }
  if (batch.length === 0) return [];
  if (batch.length > 1 && store.appendMany) return store.appendMany(batch);
  const versions: number[] = [];
  for (const { threadId, items, options } of batch)
    versions.push(await store.append(threadId, items, options));
  return versions;
}
