/**
 * Which calls are running in which chat, so that checkpoints, rollbacks and forks wait for them
 * and always see whole turns.
 * @module
 */
export class ChatActivity {
  readonly #active = new Map<string, Set<Promise<unknown>>>();

  /** Registers a call of `chatId` until it settles; returns the same promise. */
  track<T>(chatId: string, call: Promise<T>): Promise<T> {
    const active = this.#active.get(chatId) ?? new Set<Promise<unknown>>();
    this.#active.set(chatId, active);
    active.add(call);
    const done = (): void => {
      active.delete(call);
      if (active.size === 0) this.#active.delete(chatId);
    };
    call.then(done, done);
    return call;
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
