/**
 * ReplayModel: plays a cassette back offline. Each request is normalized and matched by key;
 * interactions with the same key play in recorded order (the last one repeats). A request with no
 * recording fails with `REPLAY_MISMATCH` and a unified diff against the closest recording.
 * Streamed and non-streamed recordings answer both kinds of call.
 * @module
 */
import { createTwoFilesPatch } from 'diff';
import { Usage } from '@openai/agents-core';
import type {
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '@openai/agents-core';
import { ColloquyError } from '../errors.js';
import { Cassette } from './cassette.js';
import type { CassetteInteraction, RecordedResponse } from './cassette.js';
import { canonicalJson, normalizeRequest, requestKey } from './requestKey.js';

/** Options of {@link ReplayModel}. */
export interface ReplayModelOptions {
  /** Prefer recordings with this label when showing the closest one in a mismatch. */
  label?: string;
}

function responseOf(interaction: CassetteInteraction): RecordedResponse {
  if (interaction.response) return interaction.response;
  const done = (interaction.events ?? []).find(
    (event): event is { type: 'response_done'; response: RecordedResponse & { id?: string } } =>
      (event as { type?: string }).type === 'response_done',
  );
  if (!done) {
    throw new ColloquyError(
      'REPLAY_MISMATCH',
      `Recording ${interaction.key} has no response_done event. Record it again.`,
    );
  }
  return { output: done.response.output, usage: done.response.usage, responseId: done.response.id };
}

/**
 * A Model that answers from a cassette.
 *
 * @example
 * ```ts
 * const model = new ReplayModel('test/fixtures/cassettes/demo.cassette.json');
 * const result = await run(new Agent({ name: 'Writer', instructions: '...', model }), 'Write a haiku');
 * ```
 */
export class ReplayModel implements Model {
  readonly cassette: Cassette;
  readonly #label: string | undefined;
  readonly #next = new Map<string, number>();

  constructor(cassette: Cassette | string, options: ReplayModelOptions = {}) {
    this.cassette = typeof cassette === 'string' ? Cassette.load(cassette) : cassette;
    this.#label = options.label;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const recorded = responseOf(this.#match(request));
    return {
      output: recorded.output as AgentOutputItem[],
      usage: new Usage({ requests: 1, ...recorded.usage }),
      ...(recorded.responseId === undefined ? {} : { responseId: recorded.responseId }),
    };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const interaction = this.#match(request);
    if (interaction.events) {
      for (const event of interaction.events) yield event as StreamEvent;
      return;
    }
    const recorded = responseOf(interaction);
    yield { type: 'response_started' };
    for (const item of recorded.output as Array<{ type?: string; content?: unknown }>) {
      if (item.type !== 'message' || !Array.isArray(item.content)) continue;
      for (const part of item.content as Array<{ type?: string; text?: string }>) {
        if (part.type === 'output_text' && part.text)
          yield { type: 'output_text_delta', delta: part.text };
      }
    }
    yield {
      type: 'response_done',
      response: {
        id: recorded.responseId ?? interaction.key,
        usage: { requests: 1, ...recorded.usage },
        output: recorded.output as never,
      },
    };
  }

  #match(request: ModelRequest): CassetteInteraction {
    const normalized = normalizeRequest(request);
    const key = requestKey(normalized);
    const all = this.cassette.interactions;
    const indexes = all.flatMap((item, index) => (item.key === key ? [index] : []));
    if (indexes.length > 0) {
      const position = this.#next.get(key) ?? 0;
      this.#next.set(key, Math.min(position + 1, indexes.length - 1));
      return all[indexes[Math.min(position, indexes.length - 1)]!]!;
    }
    throw this.#mismatch(normalized, key);
  }

  #mismatch(normalized: ReturnType<typeof normalizeRequest>, key: string): ColloquyError {
    const pretty = (value: unknown) =>
      `${JSON.stringify(JSON.parse(canonicalJson(value)!), null, 2)}\n`;
    const candidates = this.cassette.interactions.filter(
      (item) => this.#label === undefined || item.label === this.#label,
    );
    const pool = candidates.length > 0 ? candidates : this.cassette.interactions;
    let closest: CassetteInteraction | undefined;
    let best = Infinity;
    for (const item of pool) {
      const size = createTwoFilesPatch('a', 'b', pretty(item.request), pretty(normalized)).length;
      if (size < best) [best, closest] = [size, item];
    }
    const diff = closest
      ? createTwoFilesPatch(
          `recorded ${closest.key}${closest.label ? ` (${closest.label})` : ''}`,
          `request ${key}`,
          pretty(closest.request),
          pretty(normalized),
        )
      : '(the cassette has no interactions)';
    return new ColloquyError(
      'REPLAY_MISMATCH',
      `No recording in cassette ${this.cassette.path} matches this model request (key ${key}). ` +
        `Difference from the closest recording:\n${diff}\n` +
        `If the change is intended, record the cassette again with COLLOQUY_RECORD=${this.cassette.path}.`,
    );
  }
}
