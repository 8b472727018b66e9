/**
 * Chats and threads as JSON, in a versioned envelope. One zod schema checks both what we write and
 * what we read; reading an unknown format or a newer version fails naming both versions, and
 * older versions are brought up to date by the ordered `MIGRATIONS` list.
 *
 * Changelog of `CHAT_FORMAT_VERSION`:
 * - 1: first version (threads with ids, metadata, fork origin and items; checkpoints).
 * @module
 */
import { z } from 'zod';
import { SerializationError } from '../errors.js';
import type { Checkpoint, ThreadStore } from '../stores/types.js';
import type { ThreadItem } from '../stores/item.js';
import { rehomeThreadId } from './chatHistory.js';

/** The `format` field of an exported chat. */
export const CHAT_FORMAT = 'colloquy-chat';
/** The version this build writes. */
export const CHAT_FORMAT_VERSION = 1;

/**
 * Migrations from older versions: entry `i` turns a version `i + 1` envelope into version `i + 2`.
 * Empty while only version 1 exists; add an entry (and a frozen fixture) with every new version.
 */
const MIGRATIONS: Array<(envelope: Record<string, unknown>) => Record<string, unknown>> = [];

const itemSchema = z.object({
  id: z.string().min(1),
  item: z.record(z.string(), z.unknown()),
  meta: z
    .object({
      agent: z.string(),
      callerAgent: z.string().nullable(),
      runId: z.string(),
      parentRunId: z.string().nullable(),
      createdAt: z.string(),
    })
    .optional(),
});

const exportedThreadSchema = z.object({
  threadId: z.string().min(1),
  metadata: z.record(z.string(), z.unknown()),
  forkedFrom: z.object({ threadId: z.string(), version: z.number().int().min(0) }).nullable(),
  items: z.array(itemSchema),
});

const checkpointSchema = z.object({
  checkpointId: z.string().min(1),
  chatId: z.string(),
  label: z.string().nullable(),
  createdAt: z.string(),
  threads: z.record(z.string(), z.number().int().min(0)),
  heads: z.record(z.string(), z.string()).optional(),
});

/** The schema of an exported chat (current version). */
export const chatEnvelopeSchema = z.object({
  format: z.literal(CHAT_FORMAT),
  version: z.literal(CHAT_FORMAT_VERSION),
  chatId: z.string().min(1),
  exportedAt: z.string(),
  threads: z.array(exportedThreadSchema),
  checkpoints: z.array(checkpointSchema),
});

/** An exported chat. */
export type ChatEnvelope = z.infer<typeof chatEnvelopeSchema>;

/** Exports every thread (with items and metadata) and checkpoint of a chat. */
export async function exportChat(store: ThreadStore, chatId: string): Promise<ChatEnvelope> {
  const threads = [];
  for (const record of await store.listThreads({ chatId })) {
    const items = await store.readItems(record.threadId);
    threads.push({
      threadId: record.threadId,
      metadata: record.metadata,
      forkedFrom: record.forkedFrom,
      items,
    });
  }
  const envelope = {
    format: CHAT_FORMAT,
    version: CHAT_FORMAT_VERSION,
    chatId,
    exportedAt: new Date().toISOString(),
    threads,
    checkpoints: await store.listCheckpoints(chatId),
  };
  return chatEnvelopeSchema.parse(envelope) as ChatEnvelope;
}

/** Checks (and migrates) parsed JSON into a current envelope; `source` names it in errors. */
export function parseChatEnvelope(value: unknown, source = 'the chat export'): ChatEnvelope {
  if (!value || typeof value !== 'object') {
    throw new SerializationError(
      `${source} is not a JSON object; expected a "${CHAT_FORMAT}" export.`,
    );
  }
  let envelope = value as Record<string, unknown>;
  if (envelope.format !== CHAT_FORMAT) {
    throw new SerializationError(
      `${source} has format ${JSON.stringify(envelope.format)} version ${JSON.stringify(envelope.version)}, ` +
        `but this build reads "${CHAT_FORMAT}" version ${CHAT_FORMAT_VERSION}. ` +
        'Export it again with `colloquy threads export CHAT`.',
    );
  }
  const version = envelope.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new SerializationError(
      `${source} has version ${JSON.stringify(version)}; expected a whole number from 1 to ${CHAT_FORMAT_VERSION}.`,
    );
  }
  if (version > CHAT_FORMAT_VERSION) {
    throw new SerializationError(
      `${source} is version ${version}, newer than version ${CHAT_FORMAT_VERSION} that this build reads. Upgrade colloquy to import it.`,
    );
  }
  for (let v = version; v < CHAT_FORMAT_VERSION; v++) envelope = MIGRATIONS[v - 1]!(envelope);
  const parsed = chatEnvelopeSchema.safeParse(envelope);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new SerializationError(
      `${source} is not a valid version ${CHAT_FORMAT_VERSION} export:\n  ${issues.join('\n  ')}`,
    );
  }
  return parsed.data as ChatEnvelope;
}

/**
 * Writes an exported chat into a store, under its own chat id or `as`. Fails before writing
 * anything if one of its threads already exists there.
 */
export async function importChat(
  store: ThreadStore,
  envelope: ChatEnvelope,
  options: { as?: string } = {},
): Promise<string> {
  const chatId = options.as ?? envelope.chatId;
  const idOf = (threadId: string): string =>
    chatId === envelope.chatId ? threadId : rehomeThreadId(threadId, envelope.chatId, chatId);
  for (const thread of envelope.threads) {
    if (await store.getThread(idOf(thread.threadId))) {
      throw new SerializationError(
        `Cannot import chat "${envelope.chatId}" as "${chatId}": thread "${idOf(thread.threadId)}" already exists. ` +
          'Import under another chat id (--as NEW_ID) or delete the existing chat first.',
      );
    }
  }
  for (const thread of envelope.threads) {
    const threadId = idOf(thread.threadId);
    if (thread.items.length > 0) {
      await store.append(threadId, thread.items as ThreadItem[], { expectedVersion: 0, chatId });
    }
    await store.setMetadata(threadId, thread.metadata, chatId);
  }
  for (const checkpoint of envelope.checkpoints) {
    const rekey = <T>(record: Record<string, T>): Record<string, T> =>
      Object.fromEntries(Object.entries(record).map(([id, value]) => [idOf(id), value]));
    const copy: Checkpoint = {
      ...checkpoint,
      chatId,
      threads: rekey(checkpoint.threads),
      ...(checkpoint.heads ? { heads: rekey(checkpoint.heads) } : {}),
    };
    if (chatId !== envelope.chatId) copy.checkpointId = `${checkpoint.checkpointId}@${chatId}`;
    await store.putCheckpoint(copy);
  }
  return chatId;
}
