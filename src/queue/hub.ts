/**
 * One Redis pub/sub subscription per process, shared by every call and run it follows: channels
 * are subscribed while someone listens and dropped when the last listener leaves. ioredis
 * resubscribes by itself after a reconnect.
 * @module
 */
import type { Redis } from 'ioredis';
import { closeConnection } from './connection.js';

/** Receives the messages of one channel. */
export type ChannelListener = (message: string) => void;

/** A shared subscriber connection. */
export class SubscriptionHub {
  readonly #redis: Redis;
  readonly #listeners = new Map<string, Set<ChannelListener>>();

  constructor(redis: Redis) {
    this.#redis = redis;
    redis.on('message', (channel: string, message: string) => {
      for (const listener of this.#listeners.get(channel) ?? []) listener(message);
    });
  }

  /** Listens on `channel`; resolves once the subscription is active, with the function that ends it. */
  async listen(channel: string, listener: ChannelListener): Promise<() => void> {
    let set = this.#listeners.get(channel);
    const first = !set;
    if (!set) this.#listeners.set(channel, (set = new Set()));
    set.add(listener);
    if (first) {
      try {
        await this.#redis.subscribe(channel);
      } catch (error) {
        set.delete(listener);
        if (set.size === 0) this.#listeners.delete(channel);
        throw error;
      }
    }
    return () => {
      const current = this.#listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.#listeners.delete(channel);
      // Unheard: with no listener left, a message that still arrives is dropped anyway.
      void this.#redis.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    this.#listeners.clear();
    await closeConnection(this.#redis);
  }
}
