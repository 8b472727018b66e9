/**
 * A replay model that remembers the first request its cassette had no recording for. An agency
 * turns a nested agent's failure into the caller's tool output, so the error that ends a case is
 * often a later, derived mismatch; the first one names the change that caused it.
 * @module
 */
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import type { Cassette } from '../models/cassette.js';
import { ReplayModel } from '../models/replayModel.js';

function isMismatch(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'REPLAY_MISMATCH';
}

/** A {@link ReplayModel} that keeps the first `REPLAY_MISMATCH` it threw. */
export class WatchedReplay implements Model {
  readonly #inner: ReplayModel;
  /** The first mismatch, if any. */
  firstMismatch: Error | undefined;

  constructor(cassette: Cassette) {
    this.#inner = new ReplayModel(cassette);
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    try {
      return await this.#inner.getResponse(request);
    } catch (error) {
      if (isMismatch(error)) this.firstMismatch ??= error as Error;
      throw error;
    }
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    try {
      yield* this.#inner.getStreamedResponse(request);
    } catch (error) {
      if (isMismatch(error)) this.firstMismatch ??= error as Error;
      throw error;
    }
  }
}

/**
 * A mismatch in a few lines: the changed lines of the diff against the closest recording (at
 * most `maxLines`), without the headers.
 */
export function mismatchSummary(error: Error, maxLines = 12): string {
  const changed = error.message
    .split('\n')
    .filter((line) => /^[-+]/.test(line) && !/^(---|\+\+\+) /.test(line))
    .map((line) => (line.length > 160 ? `${line.slice(0, 160)}…` : line));
  const shown = changed.slice(0, maxLines);
  if (changed.length > maxLines) shown.push(`… ${changed.length - maxLines} more changed lines`);
  return shown.join('\n');
}
