/**
 * Across processes, one call per chat holds the chat's lease in the store (when the store declares
 * the `leases` capability: Redis and Postgres across hosts, SQLite across the processes of a host,
 * JSON files across the store objects of one process).
 * @module
 */
import { storeCapabilities } from '../stores/capabilities.js';
import { withFence } from '../stores/fence.js';
import { holdLease, LeaseBusyError, type LeaseHandle } from '../stores/lease.js';
import type { ThreadStore } from '../stores/types.js';
import { ChatBusyError } from './chatGate.js';

/** The lease key of a chat. */
export function chatLeaseKey(chatId: string): string {
  return `chat:${chatId}`;
}

/**
 * Whether calls on `store` hold a chat lease: stores declaring the `leases` capability (leases
 * that reach beyond this store object). The memory store does not: its leases reach only its own
 * object, where the per-store chat gate already serializes.
 */
export function needsChatLease(store: ThreadStore): boolean {
  return storeCapabilities(store).leases && store.leases !== undefined;
}

/**
 * Runs `work` while holding the chat's lease, waiting up to `waitMs` for it; without store leases
 * (or on the memory store, which the in-process gate covers) it just runs `work`. A busy chat fails with {@link ChatBusyError}.
 * Every store write of `work` is fenced with the lease (`withFence`): once the lease is lost (it
 * expired, for instance while this process was paused, and another caller took it) the store
 * refuses the write with `LeaseLostError` and the call fails with it.
 *
 * `work` gets the lease (undefined without one) so that its last write can release it in the same
 * transaction (`ThreadManager.saveThreads(threads, { lastWriteOf: lease })`); a lease no write
 * released is released here when `work` ends.
 */
export async function withChatLease<T>(
  store: ThreadStore,
  chatId: string,
  waitMs: number,
  signal: AbortSignal | undefined,
  work: (lease: LeaseHandle | undefined) => Promise<T>,
): Promise<T> {
  if (!needsChatLease(store) || !store.leases) return work(undefined);
  let lease;
  try {
    lease = await holdLease(store.leases, chatLeaseKey(chatId), {
      waitMs,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof LeaseBusyError) {
      throw new ChatBusyError(chatId, waitMs, 'in another process');
    }
    throw error;
  }
  try {
    return await withFence({ key: lease.key, owner: lease.owner }, () => work(lease));
  } finally {
    await lease.release();
  }
}
