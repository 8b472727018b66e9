/**
 * A model that is given a conversation's earlier items ahead of each request's input, so that a
 * run's input can be just the new message. Why: the Agents SDK's Runner clones, deduplicates and
 * keys every input item on every call (about 30 µs per item in `bench/ensembles.ts`'s 1,000-turn
 * conversation), so passing a long conversation as run input makes each turn cost more than the
 * last and leaves garbage that grows with it. Handed to the model directly, the earlier items are
 * seen by the model exactly as before and cost the Runner nothing.
 * @module
 */
import type {
  AgentInputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '@openai/agents-core';

/**
 * Wraps a model so that every request it gets starts with `prior` (the items are shared, not
 * copied: neither the wrapper nor the SDK's models change them).
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'a', model: new PriorInputModel(model, savedItems) });
 * await runner.run(agent, [{ role: 'user', content: 'next question' }]);
 * ```
 */
export class PriorInputModel implements Model {
  readonly inner: Model;
  readonly #prior: readonly AgentInputItem[];

  constructor(inner: Model, prior: readonly AgentInputItem[]) {
    this.inner = inner;
    this.#prior = prior;
  }

  get supportsPromptModelSelection(): boolean | undefined {
    return this.inner.supportsPromptModelSelection;
  }

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    return this.inner.getResponse(this.#withPrior(request));
  }

  getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    return this.inner.getStreamedResponse(this.#withPrior(request));
  }

  getRetryAdvice(
    ...args: Parameters<NonNullable<Model['getRetryAdvice']>>
  ): ReturnType<NonNullable<Model['getRetryAdvice']>> {
    return this.inner.getRetryAdvice?.(...args);
  }

  #withPrior(request: ModelRequest): ModelRequest {
    if (this.#prior.length === 0) return request;
    const input: AgentInputItem[] =
      typeof request.input === 'string'
        ? [{ role: 'user', content: request.input }]
        : request.input;
    return { ...request, input: [...this.#prior, ...input] };
  }
}
