/**
 * Models for the LLM agents of a run: one model per agent, created from its profile on first use.
 * A resumed run fast-forwards scripted models past the calls already made, so that offline runs
 * resume to exactly the result of an uninterrupted run.
 * @module
 */
import type { Model, ModelRequest, ModelSettings } from '@openai/agents-core';
import { ColloquyError } from '../errors.js';
import type { ModelProfile } from '../models/profile.js';
import type { ProfileRegistry } from '../models/profiles.js';
import type { Ensemble } from './schema.js';

/** Makes a model for a profile name (the default uses `createModel` of `src/models/resolve.ts`). */
export type CreateModel = (
  profileName: string,
  registry: ProfileRegistry | undefined,
) => Model | Promise<Model>;

/** The default {@link CreateModel}: the project's profile registry and model resolver. */
export const defaultCreateModel: CreateModel = async (profileName, registry) => {
  const profiles =
    registry ?? (await (await import('../models/projectConfig.js')).loadProjectProfiles());
  // The model stack (providers, the OpenAI client) loads only when an LLM agent runs.
  const { createModel } = await import('../models/resolve.js');
  return createModel(profileName, profiles, { baseDir: profiles.baseDir(profileName) });
};

/** What an LLM agent runs with. */
export interface AgentModel {
  model: Model;
  profile?: ModelProfile;
  /** Call settings of the profile (temperature, max tokens, retries). */
  settings?: ModelSettings;
}

const RESUME_REQUEST: ModelRequest = {
  input: 'resume',
  modelSettings: {},
  tools: [],
  outputType: 'text',
  handoffs: [],
  tracing: false,
};

/** Hands out one model per agent for one run. */
export class AgentModels {
  readonly #models = new Map<string, Promise<AgentModel>>();
  readonly #ensemble: Ensemble;
  readonly #registry: ProfileRegistry | undefined;
  readonly #create: CreateModel;
  readonly #priorRequests: Record<string, number>;

  /** `priorRequests`: model calls each agent made before this process (from the checkpoint). */
  constructor(
    ensemble: Ensemble,
    registry: ProfileRegistry | undefined,
    create: CreateModel,
    priorRequests: Record<string, number> = {},
  ) {
    this.#ensemble = ensemble;
    this.#registry = registry;
    this.#create = create;
    this.#priorRequests = priorRequests;
  }

  /** The model of an agent (created once per run). */
  get(agentName: string): Promise<AgentModel> {
    let entry = this.#models.get(agentName);
    if (!entry) {
      entry = this.#make(agentName);
      this.#models.set(agentName, entry);
    }
    return entry;
  }

  async #make(agentName: string): Promise<AgentModel> {
    const agent = this.#ensemble.agents.find((candidate) => candidate.name === agentName);
    const profileName = agent?.model_profile;
    if (!profileName)
      throw new ColloquyError(
        'ENSEMBLE_RUN_ERROR',
        `Agent "${agentName}" has no model_profile. Give it one, or make it a script agent.`,
      );
    const model = await this.#create(profileName, this.#registry);
    const [{ profileModelSettings }, { ScriptedModel }] = await Promise.all([
      import('../models/resolve.js'),
      import('../models/scriptedModel.js'),
    ]);
    const known = this.#registry?.has(profileName) ?? false;
    const profile = known ? this.#registry!.get(profileName) : undefined;
    const settings = known ? profileModelSettings(profileName, this.#registry!) : undefined;
    if (model instanceof ScriptedModel || profile?.provider === 'scripted') {
      const made = this.#priorRequests[agentName] ?? 0;
      for (let i = 0; i < made; i++) {
        try {
          await model.getResponse(RESUME_REQUEST);
        } catch {
          // A responder may reject the placeholder request; the step is consumed either way.
        }
      }
    }
    return { model, profile, settings };
  }
}
