/**
 * Checkpoints kept in process memory, as JSON text so callers never share objects with the
 * store. Used by the memory store and by the callback store (whose callbacks carry threads only).
 * @module
 */
import { checkpointExists, checkpointTime } from './common.js';
import type { Checkpoint } from './types.js';

/** An in-memory, immutable-entry checkpoint list. */
export class CheckpointBook {
  readonly #entries = new Map<string, string>();

  put(checkpoint: Checkpoint): void {
    checkpointTime(checkpoint);
    if (this.#entries.has(checkpoint.checkpointId)) throw checkpointExists(checkpoint.checkpointId);
    this.#entries.set(checkpoint.checkpointId, JSON.stringify(checkpoint));
  }

  /** A chat's checkpoints, oldest first (a stable sort keeps insertion order for equal times). */
  list(chatId: string): Checkpoint[] {
    const all = [...this.#entries.values()].map((text) => JSON.parse(text) as Checkpoint);
    return all
      .filter((c) => c.chatId === chatId)
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  }

  get(checkpointId: string): Checkpoint | null {
    const stored = this.#entries.get(checkpointId);
    return stored === undefined ? null : (JSON.parse(stored) as Checkpoint);
  }

  clear(): void {
    this.#entries.clear();
  }
}
