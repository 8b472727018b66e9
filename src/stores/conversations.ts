/**
 * {@link ConversationsStore}: threads kept in the OpenAI Conversations API, as served by OpenAI
 * and by Azure AI Foundry / Azure OpenAI. One thread is one conversation; every appended item is
 * written to it as the service's own item type. What the API cannot hold lives in a local
 * index (any {@link ThreadStore}, SQLite by default): the thread → conversation map with the
 * service's item ids, each item's exact JSON, thread metadata, fork lineage and checkpoints.
 * @module
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { ConfigError, ConflictError } from '../errors.js';
import { defaultStorePath } from '../paths.js';
import { BaseStore, type ForkRequest, type RollbackRequest } from './baseStore.js';
import { storeCapabilities, type StoreCapabilities } from './capabilities.js';
import { rangeSpan } from './common.js';
import { ConversationsHttp, type ConversationsHttpOptions } from './conversationsHttp.js';
import { fromApiItem } from './conversationsItems.js';
import { ConversationsService, type Link } from './conversationsService.js';
import { checkIds } from './ids.js';
import type { ThreadItem } from './item.js';
import { SqliteStore } from './sqlite.js';
import { delegateTraceStore } from './traceStores.js';
import type { CheckpointEntry } from './storeRequests.js';
import type { AppendOptions, Checkpoint, ReadRange, ThreadRecord, ThreadStore } from './types.js';

/** Options of {@link ConversationsStore}; the HTTP ones are in {@link ConversationsHttpOptions}. */
export interface ConversationsStoreOptions extends ConversationsHttpOptions {
  /**
   * Where the thread → conversation map, exact item JSON, metadata and checkpoints live.
   * Default: a SQLite file beside the default store, named after the base URL
   * (`.colloquy/conversations-<hash>.db`). The store closes it on `close()`.
   */
  index?: ThreadStore;
}

const LINK = '~conversation~';

/** Refuses thread ids that would collide with the index's link records. */
function notReserved(operation: string, threadId: string): void {
  if (threadId.startsWith(LINK))
    throw new ConfigError(
      `${operation}("${threadId}"): thread ids starting with "${LINK}" are reserved by ConversationsStore for its links. Pick another thread id.`,
    );
}

/** The default index file for a base URL: beside the default store, one file per service. */
export function conversationsIndexPath(
  baseURL: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const hash = createHash('sha256').update(baseURL).digest('hex').slice(0, 10);
  return join(dirname(defaultStorePath(env)), `conversations-${hash}.db`);
}

/**
 * A thread store backed by the Conversations API (`/conversations`, `/conversations/{id}/items`).
 * Appends cost one request per 20 items (two for a thread's first); loads one per 100 items.
 * Forks and rollbacks copy items into a new conversation. Version checks are atomic in the index.
 *
 * @example
 * ```ts
 * const store = new ConversationsStore({ baseURL: 'https://api.openai.com/v1' }); // OPENAI_API_KEY
 * const foundry = new ConversationsStore({
 *   baseURL: 'https://my-resource.openai.azure.com/openai/v1',
 *   getToken: async () => (await credential.getToken('https://ai.azure.com/.default')).token,
 * });
 * ```
 */
export class ConversationsStore extends BaseStore {
  readonly kind = 'conversations';
  readonly leases: ThreadStore['leases'];
  /** The index's leases and traces; service calls are serialized in this process only. */
  readonly capabilities: StoreCapabilities;
  /** The local index (see {@link ConversationsStoreOptions.index}). */
  readonly index: ThreadStore;
  readonly #http: ConversationsHttp;
  readonly #service: ConversationsService;
  readonly #locks = new Map<string, Promise<unknown>>();

  constructor(options: ConversationsStoreOptions) {
    super();
    this.#http = new ConversationsHttp(options);
    this.#service = new ConversationsService(this.#http);
    this.index =
      options.index ??
      new SqliteStore({ path: conversationsIndexPath(this.#http.baseURL, options.env) });
    this.leases = this.index.leases;
    const { leases, traces } = storeCapabilities(this.index);
    this.capabilities = { leases, appendMany: false, traces, crossProcess: false };
    delegateTraceStore(this, this.index);
  }

  /** The API root requests go to. */
  get baseURL(): string {
    return this.#http.baseURL;
  }

  /** The conversation a thread is written to, or `null` while it has none (no item yet). */
  async conversationId(threadId: string): Promise<string | null> {
    checkIds('conversationId', threadId);
    return (await this.#link(threadId))?.conversationId ?? null;
  }

  protected readRecord(threadId: string): Promise<ThreadRecord | null> {
    return this.index.getThread(threadId);
  }

  protected async readRange(threadId: string, range: ReadRange): Promise<ThreadItem[]> {
    const record = await this.index.getThread(threadId);
    if (!record) return [];
    const { start, end } = rangeSpan(record.version, range);
    if (start >= end) return [];
    const items = await this.index.readItems(threadId, { from: start, limit: end - start });
    const link = await this.#link(threadId);
    if (link) await this.#service.verify(threadId, link, start, start + items.length);
    return items;
  }

  protected async appendItems(
    threadId: string,
    bodies: string[],
    options: AppendOptions,
  ): Promise<number> {
    notReserved('append', threadId);
    const copies = bodies.map((body) => JSON.parse(body) as ThreadItem);
    return this.#withLock(threadId, async () => {
      const record = await this.index.getThread(threadId);
      const current = record?.version ?? 0;
      if (current !== options.expectedVersion)
        throw new ConflictError(threadId, options.expectedVersion, current);
      if (copies.length === 0) return current;
      const chatId = record ? record.chatId : (options.chatId ?? null);
      const old = await this.#link(threadId);
      const link = old
        ? { ...old, itemIds: old.itemIds.slice(0, current) }
        : { conversationId: await this.#service.create(threadId, chatId), itemIds: [] };
      let added: string[] = [];
      try {
        added = await this.#service.addItems(link.conversationId, copies);
        const next: Link = { ...link, itemIds: [...link.itemIds, ...added] };
        return await this.#commit(threadId, copies, options, next);
      } catch (error) {
        await this.#service.undo(old ? link.conversationId : null, link.conversationId, added);
        throw error;
      }
    });
  }

  protected async writeMetadata(
    threadId: string,
    metadata: string,
    chatId: string | null | undefined,
  ): Promise<void> {
    notReserved('setMetadata', threadId);
    await this.index.setMetadata(threadId, JSON.parse(metadata) as Record<string, unknown>, chatId);
  }

  protected async listRecords(chatId: string | undefined): Promise<ThreadRecord[]> {
    const all = await this.index.listThreads(chatId === undefined ? {} : { chatId });
    return all.filter((t) => !t.threadId.startsWith(LINK));
  }

  protected async forkThread(request: ForkRequest): Promise<ThreadRecord> {
    const { sourceId, targetId } = request;
    notReserved('fork', targetId);
    return this.#withLock(targetId, async () => {
      const source = await this.index.getThread(sourceId);
      const exists = source ? (await this.index.getThread(targetId)) !== null : false;
      const upTo = request.check(source?.version ?? null, exists);
      const chatId = request.chatId !== undefined ? request.chatId : source!.chatId;
      const link = await this.#service.copy(
        targetId,
        chatId,
        await this.index.readItems(sourceId, { limit: upTo }),
      );
      try {
        const record = await this.index.fork(sourceId, targetId, {
          upTo,
          ...(request.chatId !== undefined ? { chatId: request.chatId } : {}),
          ...(request.metadata !== undefined
            ? { metadata: JSON.parse(request.metadata) as Record<string, unknown> }
            : {}),
        });
        if (link) await this.index.setMetadata(LINK + targetId, { ...link });
        return record;
      } catch (error) {
        if (link) await this.#service.undo(null, link.conversationId, []);
        throw error;
      }
    });
  }

  protected async rollbackThread(request: RollbackRequest): Promise<string | null> {
    const { threadId, version } = request;
    return this.#withLock(threadId, async () => {
      const record = await this.index.getThread(threadId);
      if (!request.check(record?.version ?? null)) return null;
      const old = await this.#link(threadId);
      const kept = await this.index.readItems(threadId, { limit: version });
      const link = await this.#service.copy(threadId, record!.chatId, kept);
      const archiveId = (await this.index.rollback(threadId, version))!;
      // The archive keeps the old conversation, which holds the whole history before the rollback.
      if (old)
        await this.index.setMetadata(LINK + archiveId, {
          ...old,
          itemIds: old.itemIds.slice(0, record!.version),
        });
      if (link) await this.index.setMetadata(LINK + threadId, { ...link });
      else await this.index.deleteThread(LINK + threadId);
      return archiveId;
    });
  }

  protected async removeThread(threadId: string): Promise<void> {
    await this.#withLock(threadId, async () => {
      const link = await this.#link(threadId);
      if (link) await this.#service.deleteConversation(link.conversationId);
      await this.index.deleteThread(LINK + threadId);
      await this.index.deleteThread(threadId);
    });
  }

  /**
   * Files a conversation this store did not write (or whose index was lost) as thread
   * `threadId` (default: the `colloquy_thread` its metadata names). Items the index has no copy
   * of are read from the service: their ids become the service's, and they lose `meta`.
   */
  async adoptConversation(
    conversationId: string,
    options: { threadId?: string; chatId?: string | null } = {},
  ): Promise<ThreadRecord> {
    const conversation = await this.#http.request<{ metadata?: Record<string, string> | null }>(
      'GET',
      `/conversations/${encodeURIComponent(conversationId)}`,
    );
    const threadId = options.threadId ?? conversation.metadata?.colloquy_thread ?? conversationId;
    const chatId =
      options.chatId !== undefined ? options.chatId : conversation.metadata?.colloquy_chat || null;
    checkIds('adoptConversation', threadId, chatId);
    notReserved('adoptConversation', threadId);
    const api = await this.#service.list(conversationId, undefined, Infinity);
    const items = api.map(fromApiItem);
    const link: Link = { conversationId, itemIds: api.map((i) => String(i.id)) };
    await this.#commit(threadId, items, { expectedVersion: 0, chatId }, link);
    return (await this.index.getThread(threadId))!;
  }

  /** Checkpoints live in the index (whose own `putCheckpoint` keeps them). */
  protected override async saveCheckpoint(entry: CheckpointEntry): Promise<boolean> {
    if ((await this.index.getCheckpoint(entry.checkpointId)) !== null) return false;
    await this.index.putCheckpoint(JSON.parse(entry.body) as Checkpoint);
    return true;
  }

  protected override async loadCheckpoints(chatId: string): Promise<string[]> {
    return (await this.index.listCheckpoints(chatId)).map((c) => JSON.stringify(c));
  }

  protected override async loadCheckpoint(checkpointId: string): Promise<string | null> {
    const found = await this.index.getCheckpoint(checkpointId);
    return found === null ? null : JSON.stringify(found);
  }

  async close(): Promise<void> {
    await this.index.close();
  }

  /** Writes the items to the index and the link, atomically when the index batches. */
  async #commit(
    threadId: string,
    items: ThreadItem[],
    options: AppendOptions,
    link: Link,
  ): Promise<number> {
    const linkEntry = {
      threadId: LINK + threadId,
      items: [],
      options: { expectedVersion: 0 },
      metadata: { ...link },
    };
    if (this.index.appendMany) {
      const [version] = await this.index.appendMany([{ threadId, items, options }, linkEntry]);
      return version!;
    }
    const version = await this.index.append(threadId, items, options);
    await this.index.setMetadata(LINK + threadId, { ...link });
    return version;
  }

  async #link(threadId: string): Promise<Link | null> {
    const record = await this.index.getThread(LINK + threadId);
    return record ? (record.metadata as unknown as Link) : null;
  }

  async #withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#locks.set(key, tail);
    try {
      return await run;
    } finally {
      if (this.#locks.get(key) === tail) this.#locks.delete(key);
    }
  }
}
