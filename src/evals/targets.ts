/**
 * What an eval runs: an agency (an Agency, or a function building one per case) or an ensemble.
 * Each case runs in a fresh chat; with a cassette, every model call is answered from it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Model } from '@openai/agents-core';
import type { Agency } from '../agency/agency.js';
import { ConfigError } from '../errors.js';
import type { CreateModel } from '../ensembles/agentModels.js';
import { runEnsemble } from '../ensembles/run.js';
import type { Ensemble } from '../ensembles/schema.js';
import type { ProfileRegistry } from '../models/profiles.js';
import { MemoryStore } from '../stores/memory.js';
import { ThreadManager } from '../threads/threadManager.js';
import { installCaseModels, withCaseModel } from './caseModel.js';
import { agencyTranscript, ensembleTranscript } from './transcript.js';
import type { EvalTranscript } from './types.js';

/** Options of one run of a case. */
export interface TargetRunOptions {
  /** Answer every model call with this model (a case's replay). */
  model?: Model;
  signal?: AbortSignal;
}

/** Something evals can run. */
export interface EvalTarget {
  /** Shown in results (`agency demo`, `ensemble review`). */
  readonly name: string;
  /** Runs every turn of a case in a fresh conversation and returns what happened. */
  run(turns: readonly string[], options: TargetRunOptions): Promise<EvalTranscript>;
}

/** What an agency factory is given for each case. */
export interface AgencyFactoryOptions {
  /** Set when the case replays a cassette: give every agent this model. */
  model?: Model;
  /** A fresh in-memory thread manager for the case. */
  threads: ThreadManager;
}

/** Builds an agency for one case (a module may export one for `colloquy eval run`). */
export type AgencyFactory = (options: AgencyFactoryOptions) => Agency | Promise<Agency>;

/**
 * A target running an agency. A factory gets a fresh in-memory store and (when replaying) the
 * model for every agent; an Agency instance keeps its store (each case in its own chat) and
 * replays through {@link installCaseModels}.
 *
 * @example
 * ```ts
 * const target = agencyTarget(({ model, threads }) => createDemoAgency({ threads, ...(model ? { model: () => model } : {}) }));
 * ```
 */
export function agencyTarget(
  source: Agency | AgencyFactory,
  options: { name?: string } = {},
): EvalTarget {
  const isFactory = typeof source === 'function';
  const name = `agency ${options.name ?? (isFactory ? source.name || 'factory' : source.name)}`;
  return {
    name,
    async run(turns, { model, signal }) {
      const store = isFactory ? new MemoryStore() : undefined;
      const agency = isFactory
        ? await source({
            threads: new ThreadManager({ store: store! }),
            ...(model ? { model } : {}),
          })
        : source;
      if (!isFactory && model) installCaseModels(agency);
      const chatId = `eval_${randomUUID()}`;
      const started = performance.now();
      const work = async () => {
        const responses = [];
        for (const turn of turns)
          responses.push(await agency.getResponse(turn, { chatId, ...(signal ? { signal } : {}) }));
        return responses;
      };
      try {
        const responses = !isFactory && model ? await withCaseModel(model, work) : await work();
        const transcript = agencyTranscript(responses, performance.now() - started);
        // An agency instance keeps its store, so the case's traces can be found by its chat.
        return isFactory ? transcript : { ...transcript, chatId };
      } finally {
        if (isFactory) {
          await agency.close();
          await store!.close();
        }
      }
    },
  };
}

/** Options of {@link ensembleTarget}. */
export interface EnsembleTargetOptions {
  /** Profiles of its LLM agents (default: loaded from the current directory). */
  profiles?: ProfileRegistry;
  /** Makes live models (default: the profile's). */
  createModel?: CreateModel;
}

/** A target running an ensemble on each case's input (one turn per case). */
export function ensembleTarget(
  ensemble: Ensemble,
  options: EnsembleTargetOptions = {},
): EvalTarget {
  return {
    name: `ensemble ${ensemble.name}`,
    async run(turns, { model, signal }) {
      if (turns.length !== 1)
        throw new ConfigError(
          `Ensemble "${ensemble.name}" runs one task per case, but the case has ${turns.length} turns. Give it a single input.`,
        );
      const started = performance.now();
      const create = model ? () => model : options.createModel;
      const result = await runEnsemble(ensemble, {
        input: turns[0]!,
        ...(options.profiles ? { profiles: options.profiles } : {}),
        ...(create ? { createModel: create } : {}),
        ...(signal ? { signal } : {}),
      });
      return ensembleTranscript(result, performance.now() - started);
    },
  };
}
