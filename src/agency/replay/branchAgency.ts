/**
 * The agency a what-if branch runs on: the same options, threads and flows as the original, with
 * each agent cloned onto a {@link BranchModel} (recorded answers first, live model otherwise) and
 * the requested changes (instructions, model) applied to their agents.
 * @module
 */
import type { Model, Runner, Agent as SdkAgent } from '@openai/agents-core';
import { ConfigError } from '../../errors.js';
import { modelLabel } from '../../models/tracedModel.js';
import { Agency } from '../agency.js';
import { BranchModel, type ReplayTally } from './branchModel.js';
import type { Recording } from './recordings.js';

/** What a replay changes about one agent. */
export interface ReplayChange {
  /** New instructions (text). */
  instructions?: string;
  /** Another model: a model name (resolved by the agency's Runner) or a Model. */
  model?: string | Model;
}

/** Inputs of {@link branchAgency}. */
export interface BranchAgencyInput {
  set: Record<string, ReplayChange>;
  recordings: Recording[];
  tally: ReplayTally;
}

/** The model a name (or the agent's own model) stands for, as the SDK Runner would resolve it. */
export async function resolveLiveModel(runner: Runner, model: string | Model): Promise<Model> {
  if (typeof model !== 'string') return model;
  const fallback = runner.config.model;
  if (model === '' && fallback !== undefined && typeof fallback !== 'string') return fallback;
  const name = model !== '' ? model : typeof fallback === 'string' ? fallback : undefined;
  return runner.config.modelProvider.getModel(name);
}

/** Builds the branch agency (see the module comment). */
export function branchAgency(agency: Agency, input: BranchAgencyInput): Agency {
  const options = (agency as { options?: Agency['options'] }).options;
  if (!options) {
    throw new ConfigError(
      `Agency "${agency.name}" does not expose its options, so a replay cannot rebuild it. ` +
        "Build it with new Agency(...) from the same copy of 'colloquy' that runs the replay.",
    );
  }
  const clones = new Map<string, SdkAgent<any, any>>();
  for (const [name, agent] of agency.agents) {
    const change = input.set[name];
    const live = change?.model ?? (agent.model as string | Model);
    const model = new BranchModel({
      agent: name,
      recordings: input.recordings,
      tally: input.tally,
      alwaysLive: change !== undefined,
      label: typeof live === 'string' ? live || 'default' : modelLabel(live),
      live: () => resolveLiveModel(agency.runner, live),
    });
    clones.set(
      name,
      agent.clone({
        model,
        ...(change?.instructions !== undefined ? { instructions: change.instructions } : {}),
      }),
    );
  }
  // Handoffs to agents of the agency go to their clones.
  for (const clone of clones.values()) {
    clone.handoffs = clone.handoffs.map((target) =>
      'name' in target && agency.agents.get(target.name) === target
        ? clones.get(target.name)!
        : target,
    );
  }
  const { router: _router, ...rest } = options;
  return new Agency({
    ...rest,
    name: agency.name,
    threads: agency.threads,
    runner: agency.runner,
    entryPoints: agency.entryPoints.map((name) => clones.get(name)!),
    communicationFlows: agency.flows.map(([from, to]) => [clones.get(from)!, clones.get(to)!]),
  });
}
