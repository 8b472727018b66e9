/**
 * Requests and runs in flight, so that shutdown can stop taking work, wait for what is running
 * and only then close agencies and stores.
 * @module
 */

/** Counts tracked work and tells when there is none. */
export class InFlight {
  #count = 0;
  #draining = false;
  #waiters: Array<() => void> = [];
  #onCut = new Set<() => void>();

  /** Whether shutdown has begun (new requests get 503). */
  get draining(): boolean {
    return this.#draining;
  }

  /** How much tracked work is running. */
  get size(): number {
    return this.#count;
  }

  /** Marks the start of shutdown. */
  drain(): void {
    this.#draining = true;
  }

  /** Calls `stop` when shutdown cuts the work still running (background calls register here). */
  onCut(stop: () => void): void {
    this.#onCut.add(stop);
  }

  /** Stops the work still running once the grace period is over (see {@link onCut}). */
  cut(): void {
    for (const stop of this.#onCut) stop();
  }

  /** Tracks `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.enter();
    const settle = () => this.leave();
    work.then(settle, settle);
    return work;
  }

  /**
   * Counts one piece of work as running until a matching {@link leave}: what {@link track} does
   * without a promise, for callers that know when their work ends (a request's handler returning,
   * a response's `close`).
   */
  enter(): void {
    this.#count += 1;
  }

  /** Ends one piece of work counted by {@link enter}; wakes {@link idle} waiters at zero. */
  leave(): void {
    this.#count -= 1;
    if (this.#count === 0 && this.#waiters.length > 0) {
      for (const wake of this.#waiters.splice(0)) wake();
    }
  }

  /** Resolves true once nothing is tracked, or false after `timeoutMs`. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
