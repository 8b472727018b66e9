/**
 * Memory in Redis: records (with their vectors) in one hash, a set of record keys per user, and
 * search as an exact scan of the user's vectors (correct; RediSearch is not needed). The writes
 * that must be atomic run as Lua scripts (see `redisScripts.ts`).
 * @module
 */
import { createClient } from '../stores/redisDriver.js';
import { ConfigError } from '../errors.js';
import { cosine } from './embedder.js';
import { inScope, mixedEmbedders, recordOf } from './memoryBackend.js';
import { ADD_ENTRIES, FORGET, REPLACE_VECTORS } from './redisScripts.js';
import type {
  ForgetReport,
  MemoryBackend,
  MemoryEntry,
  MemoryHit,
  MemoryRecord,
  MemoryScope,
  SummaryRecord,
  WorkingMemoryVersion,
} from './types.js';

type Client = ReturnType<typeof createClient>;

/** Options of {@link RedisMemory}. */
export interface RedisMemoryOptions {
  /** Server URL (default `redis://127.0.0.1:6379`). Ignored when `client` is given. */
  url?: string;
  /** A node-redis client to use instead (connected if needed, never closed by the backend). */
  client?: Client;
  /** Prefix of every key (default `colloquy:`); memory's keys go under `<prefix>memory:`. */
  keyPrefix?: string;
}

/** A stored record: its entry with the vector as base64 32-bit floats. */
type Stored = Omit<MemoryEntry, 'vector'> & { vector: string; seq: number };

function encode(vector: readonly number[]): string {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}

function decode(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

function parse(value: string): Stored {
  const bar = value.indexOf('|');
  return { ...(JSON.parse(value.slice(bar + 1)) as Stored), seq: Number(value.slice(0, bar)) };
}

function entryOf(stored: Stored): MemoryEntry {
  const { seq: _seq, vector, ...record } = stored;
  return { ...record, vector: Array.from(decode(vector)) };
}

/**
 * Memory in Redis (any version with Lua; no modules needed).
 *
 * @example
 * ```ts
 * const memory = new RedisMemory({ url: 'redis://127.0.0.1:6379', keyPrefix: 'myapp:' });
 * ```
 */
export class RedisMemory implements MemoryBackend {
  readonly kind = 'redis';
  readonly #p: string;
  readonly #owned: boolean;
  readonly #url: string;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;

  constructor(options: RedisMemoryOptions = {}) {
    const prefix = options.keyPrefix ?? 'colloquy:';
    if (!prefix) {
      throw new ConfigError(
        'RedisMemory: keyPrefix is empty. Give it a prefix such as `colloquy:` so its keys cannot collide with others.',
      );
    }
    this.#p = `${prefix}memory:`;
    this.#url = options.url ?? 'redis://127.0.0.1:6379';
    this.#owned = options.client === undefined;
    this.#client = options.client;
  }

  async #redis(): Promise<Client> {
    if (!this.#client) {
      this.#client = createClient({ url: this.#url });
      // Connection errors reject the commands waiting on them; the event only must not crash.
      this.#client.on('error', () => {});
    }
    const client = this.#client;
    if (client.isOpen) return client;
    this.#connecting ??= client.connect().then(
      () => client,
      (error: unknown) => {
        this.#connecting = undefined;
        throw error;
      },
    );
    return this.#connecting;
  }

  async #eval(script: string, args: string[]): Promise<unknown> {
    return (await this.#redis()).eval(script, { keys: [], arguments: [this.#p, ...args] });
  }

  async embedding(): Promise<{ model: string; dimensions: number } | null> {
    const meta = await (await this.#redis()).hGetAll(`${this.#p}meta`);
    return meta.model && meta.dimensions
      ? { model: meta.model, dimensions: Number(meta.dimensions) }
      : null;
  }

  #payload(entries: readonly MemoryEntry[]): string[] {
    const first = entries[0];
    const other = entries.find(
      (e) => first && (e.model !== first.model || e.dimensions !== first.dimensions),
    );
    if (first && other) throw mixedEmbedders(first, other);
    const rows = entries.map(({ vector, ...record }) => [
      `${record.threadId}\u0000${record.itemId}`,
      record.userId,
      JSON.stringify({ ...record, vector: encode(vector) }),
    ]);
    return [first?.model ?? '', String(first?.dimensions ?? 0), JSON.stringify(rows)];
  }

  async addEntries(entries: readonly MemoryEntry[], marks: Record<string, number>): Promise<void> {
    const reply = String(
      await this.#eval(ADD_ENTRIES, [...this.#payload(entries), JSON.stringify(marks)]),
    );
    if (reply !== 'ok') {
      const [model, dimensions] = reply.split('\u0000');
      throw mixedEmbedders({ model: model!, dimensions: Number(dimensions) }, entries[0]!);
    }
  }

  async indexedVersion(threadId: string): Promise<number> {
    return Number((await (await this.#redis()).hGet(`${this.#p}marks`, threadId)) ?? 0);
  }

  /** The stored records of `scope`, in the order they were added. */
  async #stored(scope: Partial<MemoryScope>): Promise<Stored[]> {
    const redis = await this.#redis();
    const users =
      scope.userId !== undefined ? [scope.userId] : await redis.sMembers(`${this.#p}users`);
    const found: Stored[] = [];
    for (const user of users) {
      const fields = await redis.sMembers(`${this.#p}u:${user}`);
      for (let i = 0; i < fields.length; i += 1000) {
        const values = await redis.hmGet(`${this.#p}rec`, fields.slice(i, i + 1000));
        for (const value of values) {
          if (typeof value !== 'string') continue;
          const stored = parse(value);
          if (inScope(stored, scope)) found.push(stored);
        }
      }
    }
    return found.sort((a, b) => a.seq - b.seq);
  }

  async search(query: readonly number[], scope: MemoryScope, k: number): Promise<MemoryHit[]> {
    if (k <= 0) return [];
    return (await this.#stored(scope))
      .map((stored) => {
        const { seq: _seq, vector, ...record } = stored;
        return { ...record, similarity: cosine(query, decode(vector)) };
      })
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, k);
  }

  async list(scope: MemoryScope): Promise<MemoryRecord[]> {
    return (await this.#stored(scope)).map((stored) => recordOf(entryOf(stored)));
  }

  async *entries(scope: Partial<MemoryScope> = {}): AsyncIterable<MemoryEntry[]> {
    const all = (await this.#stored(scope)).map(entryOf);
    for (let i = 0; i < all.length; i += 500) yield all.slice(i, i + 500);
  }

  async replaceVectors(entries: readonly MemoryEntry[]): Promise<void> {
    await this.#eval(REPLACE_VECTORS, this.#payload(entries));
  }

  async getWorking(agency: string, userId: string): Promise<WorkingMemoryVersion | null> {
    return (await this.workingVersions(agency, userId)).at(-1) ?? null;
  }

  async workingVersions(agency: string, userId: string): Promise<WorkingMemoryVersion[]> {
    const list = await (await this.#redis()).lRange(`${this.#p}w:${agency}\u0000${userId}`, 0, -1);
    return list.map((json, i) => {
      const { content, createdAt } = JSON.parse(json) as { content: string; createdAt: string };
      return { agency, userId, version: i + 1, content, createdAt };
    });
  }

  async putWorking(agency: string, userId: string, content: string): Promise<WorkingMemoryVersion> {
    const createdAt = new Date().toISOString();
    const [length] = await (
      await this.#redis()
    )
      .multi()
      .rPush(`${this.#p}w:${agency}\u0000${userId}`, JSON.stringify({ content, createdAt }))
      .sAdd(`${this.#p}wa:${userId}`, agency)
      .exec();
    return { agency, userId, version: Number(length), content, createdAt };
  }

  async summaries(threadId: string): Promise<SummaryRecord[]> {
    const all = await (await this.#redis()).hVals(`${this.#p}s:${threadId}`);
    return all
      .map((json) => JSON.parse(json) as SummaryRecord)
      .sort((a, b) => a.position - b.position);
  }

  async putSummary(summary: SummaryRecord): Promise<void> {
    const multi = (await this.#redis())
      .multi()
      .hSet(`${this.#p}s:${summary.threadId}`, String(summary.position), JSON.stringify(summary));
    if (summary.userId !== null) multi.sAdd(`${this.#p}su:${summary.userId}`, summary.threadId);
    await multi.exec();
  }

  async forget(userId: string, agency?: string): Promise<ForgetReport> {
    const [vectors, workingVersions, summaries] = (await this.#eval(FORGET, [
      userId,
      agency ?? '',
    ])) as number[];
    return {
      vectors: Number(vectors),
      workingVersions: Number(workingVersions),
      summaries: Number(summaries),
    };
  }

  async close(): Promise<void> {
    const client = this.#client;
    if (this.#owned && client?.isOpen) await client.close();
  }
}
