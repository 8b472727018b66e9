/**
 * Runs tasks one at a time per key (a thread id), in call order, without blocking other keys.
 * A chain of promises per key; the key is forgotten when its last task settles.
 * @module
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier task of `key` has settled; resolves with its result. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    const result = previous ? previous.then(task, task) : task();
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
