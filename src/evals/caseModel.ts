/**
 * Running an Agency instance you already built on a case's cassette: each of its runtime agents
 * gets a {@link CaseModel}, which answers with the model of the case being run (found from the
 * async context, so concurrent cases each replay their own cassette) and otherwise with the
 * agent's own model.
 * @module
 */
import { contextSlot, readSlot, runInSlot } from '../asyncContext.js';
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents-core';
import type { Agency } from '../agency/agency.js';

const current = contextSlot<Model>('eval case model');

/** Runs `work` with `model` answering every model call of installed agencies. */
export function withCaseModel<T>(model: Model, work: () => Promise<T>): Promise<T> {
  return runInSlot(current, model, work);
}

/** A model that defers to the case's model, or to the agent's own. */
export class CaseModel implements Model {
  readonly #own: () => Promise<Model>;

  constructor(own: () => Promise<Model>) {
    this.#own = own;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return (readSlot(current) ?? (await this.#own())).getResponse(request);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    yield* (readSlot(current) ?? (await this.#own())).getStreamedResponse(request);
  }
}

/**
 * Gives every runtime agent of `agency` a {@link CaseModel} (once: an agent that has one keeps
 * it). An agent whose model is a name keeps resolving it with the agency's Runner outside cases.
 */
export function installCaseModels(agency: Agency): void {
  for (const name of agency.agents.keys()) {
    const runtime = agency.runtimeAgent(name);
    const own = runtime.model;
    if (own instanceof CaseModel) continue;
    const resolve =
      typeof own === 'string'
        ? async () => agency.runner.config.modelProvider.getModel(own || undefined)
        : async () => own;
    runtime.model = new CaseModel(resolve);
  }
}
