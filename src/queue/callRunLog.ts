/**
 * Background calls kept in the queue's Redis, so that every server of a cluster answers
 * `GET /runs/:id` and `/runs/:id/events` for a run any of them started, and `DELETE /runs/:id`
 * reaches the server that drives it. Per run: its summary (a JSON string), its events (a list, so
 * an event's id is its index: `RPUSH` numbers them atomically) and a channel that tells followers
 * something changed; one channel carries cancellations to every server.
 * @module
 */
import type { CallRunEvent, CallRunLog, CallRunSummary } from '../server/runs/runLog.js';
import type { QueueClient } from './client.js';

/** How long a run's records live after their last write (7 days). */
const TTL_SECONDS = 7 * 86_400;

/** The {@link CallRunLog} of a queued server (see the module comment). */
export class RedisCallRunLog implements CallRunLog {
  readonly #client: QueueClient;
  readonly #own: string;

  constructor(client: QueueClient) {
    this.#client = client;
    this.#own = `${client.connection.prefix}:q:callrun`;
  }

  #keys(runId: string) {
    const base = `${this.#own}:${runId}`;
    return { summary: `${base}:summary`, events: `${base}:events`, channel: `${base}:changed` };
  }

  get #cancelChannel(): string {
    return `${this.#own}s:cancel`;
  }

  /** Runs `work` once the producer connection is up, failing clearly when Redis is not. */
  #redis<T>(what: string, work: (redis: QueueClient['redis']) => Promise<T>): Promise<T> {
    return this.#client.enqueue(what, () => work(this.#client.redis));
  }

  async create(summary: CallRunSummary): Promise<void> {
    const { summary: key } = this.#keys(summary.runId);
    await this.#redis(`background call ${summary.runId}`, (redis) =>
      redis.set(key, JSON.stringify(summary), 'EX', TTL_SECONDS),
    );
  }

  async append(runId: string, event: CallRunEvent): Promise<number> {
    const keys = this.#keys(runId);
    const results = await this.#redis(`an event of background call ${runId}`, (redis) =>
      redis
        .multi()
        .rpush(keys.events, JSON.stringify(event))
        .expire(keys.events, TTL_SECONDS)
        .publish(keys.channel, '1')
        .exec(),
    );
    const [error, length] = results?.[0] ?? [new Error('the transaction was discarded'), 0];
    if (error) throw error;
    return Number(length) - 1;
  }

  async update(summary: CallRunSummary): Promise<void> {
    const keys = this.#keys(summary.runId);
    const results = await this.#redis(`the state of background call ${summary.runId}`, (redis) =>
      redis
        .multi()
        .set(keys.summary, JSON.stringify(summary), 'EX', TTL_SECONDS)
        .publish(keys.channel, '1')
        .exec(),
    );
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }

  async summary(runId: string): Promise<CallRunSummary | null> {
    const keys = this.#keys(runId);
    const [text, count] = await this.#redis(`the state of background call ${runId}`, (redis) =>
      Promise.all([redis.get(keys.summary), redis.llen(keys.events)]),
    );
    if (text === null) return null;
    return { ...(JSON.parse(text) as CallRunSummary), events: count };
  }

  async events(runId: string, from: number): Promise<CallRunEvent[]> {
    const texts = await this.#redis(`the events of background call ${runId}`, (redis) =>
      redis.lrange(this.#keys(runId).events, Math.max(0, from), -1),
    );
    return texts.map((text) => JSON.parse(text) as CallRunEvent);
  }

  watch(runId: string, wake: () => void): Promise<() => void> {
    return this.#client.listen(this.#keys(runId).channel, () => wake());
  }

  async requestCancel(runId: string, reason: string): Promise<void> {
    await this.#redis(`the cancellation of background call ${runId}`, (redis) =>
      redis.publish(this.#cancelChannel, JSON.stringify({ runId, reason })),
    );
  }

  onCancel(listener: (runId: string, reason: string) => void): Promise<() => void> {
    return this.#client.listen(this.#cancelChannel, (text) => {
      const { runId, reason } = JSON.parse(text) as { runId: string; reason: string };
      listener(runId, reason);
    });
  }
}
