/**
 * Appends to several threads (and replaces the metadata of those entries that carry some): in one
 * transaction when the store offers `appendMany`, else one `append` (then `setMetadata`) per
 * thread, each atomic on its own.
 * @module
 */
import { StoreError } from '../errors.js';
import type { AppendBatchEntry, ThreadStore } from './types.js';

/**
 * Appends every entry of `batch` (then replaces its metadata, when it has some) and returns the
 * new versions, in order. With `appendMany` it is all or nothing; without, entries are written in
 * order and a `ConflictError` stops at the first stale one (the entries before it stay written),
 * and an entry with metadata but no items is a `setMetadata` alone, without the version check.
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
  if (store.appendMany && (batch.length > 1 || batch[0]!.metadata)) return store.appendMany(batch);
  const versions: number[] = [];
  for (const { threadId, items, options, metadata } of batch) {
    // A metadata-only entry is one setMetadata here (no version check: a round trip saved).
    versions.push(
      items.length || !metadata
        ? await store.append(threadId, items, options)
        : options.expectedVersion,
    );
    if (metadata) await store.setMetadata(threadId, metadata, options.chatId);
  }
  return versions;
}
