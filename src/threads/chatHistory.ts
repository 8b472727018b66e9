/**
 * Time travel over a whole chat: checkpoints (every thread's version at one moment), rollback to
 * a checkpoint, and forking a chat (from now or from a checkpoint) into a new chat. Works on any
 * {@link ThreadStore}: rollback keeps the cut items under archive threads, forks copy nothing.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { ColloquyError } from '../errors.js';
import { ARCHIVE_MARK, isArchiveThreadId } from '../stores/common.js';
import type { Checkpoint, ThreadRecord, ThreadStore } from '../stores/types.js';
import { escapePart, parseThreadId, threadIdFor } from './threadId.js';

/** Thrown when a checkpoint id is unknown or belongs to another chat. */
export class CheckpointNotFoundError extends ColloquyError {
  constructor(message: string) {
    super('CHECKPOINT_NOT_FOUND', message);
  }
}

/** The live threads of a chat: every thread filed under it but the archives rollbacks left. */
export async function liveThreads(store: ThreadStore, chatId: string): Promise<ThreadRecord[]> {
  return (await store.listThreads({ chatId })).filter(
    (record) => !isArchiveThreadId(record.threadId),
  );
}

/** Records every live thread's version (and last item) in `chatId` and returns the checkpoint. */
export async function checkpointChat(
  store: ThreadStore,
  chatId: string,
  label: string | null = null,
): Promise<Checkpoint> {
  const threads: Record<string, number> = {};
  const heads: Record<string, string> = {};
  for (const record of await liveThreads(store, chatId)) {
    threads[record.threadId] = record.version;
    const [last] = record.version > 0 ? await store.readItems(record.threadId, { newest: 1 }) : [];
    if (last) heads[record.threadId] = last.id;
  }
  const checkpoint: Checkpoint = {
    checkpointId: `ckpt_${randomUUID()}`,
    chatId,
    label,
    createdAt: new Date().toISOString(),
    threads,
    heads,
  };
  await store.putCheckpoint(checkpoint);
  return checkpoint;
}

/** A checkpoint of `chatId`, or a {@link CheckpointNotFoundError} listing the chat's checkpoints. */
export async function findCheckpoint(
  store: ThreadStore,
  chatId: string,
  checkpointId: string,
): Promise<Checkpoint> {
  const checkpoint = await store.getCheckpoint(checkpointId);
  if (checkpoint && checkpoint.chatId === chatId) return checkpoint;
  const known = (await store.listCheckpoints(chatId)).map(
    (c) => c.checkpointId + (c.label ? ` (${c.label})` : ''),
  );
  throw new CheckpointNotFoundError(
    `Chat "${chatId}" has no checkpoint "${checkpointId}". ` +
      (known.length > 0
        ? `Its checkpoints: ${known.join(', ')}.`
        : 'It has no checkpoints yet: create one first.'),
  );
}

/** Thrown when a rollback cut a thread below a checkpoint and new items took those positions. */
export class StaleCheckpointError extends ColloquyError {
  constructor(message: string) {
    super('CHECKPOINT_STALE', message);
  }
}

/**
 * Refuses a checkpoint whose positions now hold other items: a later rollback cut the thread
 * below it and new items were appended. (The checkpoint's items live on in an archive thread.)
 */
async function assertCurrent(store: ThreadStore, checkpoint: Checkpoint): Promise<void> {
  for (const [threadId, version] of Object.entries(checkpoint.threads)) {
    const head = checkpoint.heads?.[threadId];
    if (head === undefined || version === 0) continue;
    const [item] = await store.readItems(threadId, { from: version - 1, limit: 1 });
    if (item?.id === head) continue;
    throw new StaleCheckpointError(
      `Checkpoint ${checkpoint.checkpointId} of chat "${checkpoint.chatId}" no longer matches thread "${threadId}": ` +
        `a rollback cut it below position ${version} and other items took their place. ` +
        'Its items are kept in the archive thread that rollback left (colloquy threads list); fork from there, or use a newer checkpoint.',
    );
  }
}

/**
 * Restores a chat to a checkpoint: each thread is cut back to its version then, and threads born
 * after it are cut to nothing. Cut items stay readable under archive threads (returned, by thread).
 */
export async function rollbackChat(
  store: ThreadStore,
  chatId: string,
  checkpointId: string,
): Promise<Record<string, string>> {
  const checkpoint = await findCheckpoint(store, chatId, checkpointId);
  await assertCurrent(store, checkpoint);
  const archives: Record<string, string> = {};
  for (const record of await liveThreads(store, chatId)) {
    const target = checkpoint.threads[record.threadId] ?? 0;
    if (target > record.version) {
      throw new ColloquyError(
        'STORE_ERROR',
        `Cannot roll back thread "${record.threadId}" to version ${target}: it has only ${record.version} items. ` +
          'The thread was cut back or replaced after the checkpoint was taken.',
      );
    }
    const archive = await store.rollback(record.threadId, target);
    if (archive) archives[record.threadId] = archive;
  }
  return archives;
}

/** The id a thread of `fromChat` gets in `toChat` (archive ids keep their `~reset~…` suffix). */
export function rehomeThreadId(threadId: string, fromChat: string, toChat: string): string {
  const archiveAt = threadId.indexOf(ARCHIVE_MARK);
  if (archiveAt >= 0) {
    return (
      rehomeThreadId(threadId.slice(0, archiveAt), fromChat, toChat) + threadId.slice(archiveAt)
    );
  }
  const parsed = parseThreadId(threadId);
  if (parsed && parsed.chatId === fromChat) {
    const [agent, other] = parsed.participants;
    return threadIdFor(toChat, agent, other);
  }
  const prefix = `${escapePart(fromChat)}::`;
  if (threadId.startsWith(prefix)) return `${escapePart(toChat)}::${threadId.slice(prefix.length)}`;
  throw new ColloquyError(
    'THREAD_NOT_FOUND',
    `Thread "${threadId}" is filed under chat "${fromChat}" but its id does not start with that chat; it cannot be moved to "${toChat}".`,
  );
}

/**
 * Continues a chat in a new chat: every thread is forked (as of the checkpoint, or now), so the
 * original chat is left untouched. Returns the new chat id.
 */
export async function forkChat(
  store: ThreadStore,
  chatId: string,
  options: { checkpointId?: string; newChatId?: string } = {},
): Promise<string> {
  const newChatId = options.newChatId ?? `chat_${randomUUID()}`;
  let versions: Record<string, number>;
  if (options.checkpointId) {
    const checkpoint = await findCheckpoint(store, chatId, options.checkpointId);
    await assertCurrent(store, checkpoint);
    versions = checkpoint.threads;
  } else {
    versions = Object.fromEntries(
      (await liveThreads(store, chatId)).map((r) => [r.threadId, r.version]),
    );
  }
  if (Object.keys(versions).length === 0) {
    throw new ColloquyError(
      'THREAD_NOT_FOUND',
      `Chat "${chatId}" has no threads to fork. Check the chat id.`,
    );
  }
  for (const [threadId, upTo] of Object.entries(versions)) {
    await store.fork(threadId, rehomeThreadId(threadId, chatId, newChatId), {
      upTo,
      chatId: newChatId,
    });
  }
  return newChatId;
}
