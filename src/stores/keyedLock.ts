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
    // Settles (never rejects) once the task has, forgetting the key unless a later task queued.
    const tail: Promise<void> = result.then(
      () => this.#forget(key, tail),
      () => this.#forget(key, tail),
    );
    this.#tails.set(key, tail);
    return result;
  }

  #forget(key: string, tail: Promise<unknown>): void {
    if (this.#tails.get(key) === tail) this.#tails.delete(key);
  }
}
