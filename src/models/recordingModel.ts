/**
 * RecordingModel: wraps a Model and appends every successful call (request and response, or
 * every stream event) to a cassette. Failed attempts are not recorded: the SDK repeats them and
 * the successful repeat is what a replay needs.
 * @module
 */
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import { Cassette, recordingCassette } from './cassette.js';
import type { CassetteInteraction } from './cassette.js';
import { normalizeRequest, requestKey } from './requestKey.js';

/** Options of {@link RecordingModel}. */
export interface RecordingModelOptions {
  /** The cassette, or a file path (shared with other recording models of this process). */
  cassette: Cassette | string;
  /** A label saved with each interaction (the profile name). */
  label?: string;
  /** Exact secret values to scrub (the loaded API keys). */
  secrets?: readonly string[];
}

/** Turns a live response into its JSON form. */
export function toRecordedResponse(
  response: ModelResponse,
): NonNullable<CassetteInteraction['response']> {
  const { usage } = response;
  return {
    output: JSON.parse(JSON.stringify(response.output)) as unknown[],
    usage: {
      requests: usage.requests,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      totalTokens: usage.totalTokens,
    },
    ...(response.responseId === undefined ? {} : { responseId: response.responseId }),
  };
}

/**
 * A Model that records what the model it wraps answers.
 *
 * @example
 * ```ts
 * const model = new RecordingModel(createModel('fast', registry), { cassette: 'demo.cassette.json', label: 'fast' });
 * ```
 */
export class RecordingModel implements Model {
  readonly inner: Model;
  readonly cassette: Cassette;
  readonly #label: string | undefined;

  constructor(inner: Model, options: RecordingModelOptions) {
    this.inner = inner;
    this.cassette =
      typeof options.cassette === 'string'
        ? recordingCassette(options.cassette, { secrets: options.secrets })
        : options.cassette;
    this.#label = options.label;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const response = await this.inner.getResponse(request);
    await this.cassette.append({
      ...this.#head(request, false),
      response: toRecordedResponse(response),
    });
    return response;
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const events: unknown[] = [];
    for await (const event of this.inner.getStreamedResponse(request)) {
      events.push(JSON.parse(JSON.stringify(event)) as unknown);
      yield event;
    }
    await this.cassette.append({ ...this.#head(request, true), events });
  }

  #head(request: ModelRequest, stream: boolean): Omit<CassetteInteraction, 'response' | 'events'> {
    const normalized = normalizeRequest(request);
    return {
      key: requestKey(normalized),
      ...(this.#label === undefined ? {} : { label: this.#label }),
      stream,
      request: normalized,
    };
  }
}
