/**
 * Which calls are running in which chat, so that checkpoints, rollbacks and forks wait for them
 * and always see whole turns.
 * @module
 */
export class ChatActivity {
  readonly #active = new Map<string, Set<Promise<unknown>>>();

  /** Registers a call of `chatId` until it settles; returns the same promise. */
  track<T>(chatId: string, call: Promise<T>): Promise<T> {
    let active = this.#active.get(chatId);
    if (!active) this.#active.set(chatId, (active = new Set<Promise<unknown>>()));
    active.add(call);
    // One bound handler for both outcomes (a bound method: no closure to name per call).
    const done = this.#done.bind(this, chatId, active, call);
    call.then(done, done);
    return call;
  }

  #done(chatId: string, active: Set<Promise<unknown>>, call: Promise<unknown>): void {
    active.delete(call);
    if (active.size === 0 && this.#active.get(chatId) === active) this.#active.delete(chatId);
  }

  /** Resolves when every call running now, in any chat, has settled. */
  async allSettled(): Promise<void> {
    await Promise.allSettled([...this.#active.values()].flatMap((calls) => [...calls]));
  }

  /** Resolves when every call of `chatId` running now has settled. */
  async settled(chatId: string): Promise<void> {
    const active = this.#active.get(chatId);
    if (active) await Promise.allSettled([...active]);
  }
}
