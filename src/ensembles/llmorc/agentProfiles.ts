/**
 * llm-orc lets an agent name its model inline (`model` + `provider`) or override call settings of
 * its profile (`temperature`, `max_tokens`, `options`, `fallback_model_profile`). Colloquy's run
 * engine resolves models by profile name, so each such agent gets a derived profile of its own,
 * named `<profile>@<agent>` (or `<provider>/<model>@<agent>` for an inline model).
 * @module
 */
import type { ModelProfile } from '../../models/profile.js';
import type { ProfileMap, ProfileRegistry } from '../../models/profiles.js';
import type { Ensemble, EnsembleAgent } from '../schema.js';

/** The ensemble with derived profile names, and the profiles to add to the registry. */
export interface AgentProfiles {
  ensemble: Ensemble;
  profiles: ProfileMap;
}

const OVERRIDES = ['temperature', 'max_tokens', 'options', 'fallback_model_profile'] as const;

function overridesOf(agent: EnsembleAgent): Partial<ModelProfile> {
  const out: Partial<ModelProfile> = {};
  for (const key of OVERRIDES) {
    const value = agent.llmorc?.[key];
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * Derives one profile per agent that names an inline model or overrides its profile's settings.
 * Agents whose base profile is unknown or broken are left as they are (the run reports it).
 *
 * @example
 * ```ts
 * const { ensemble: ready, profiles } = deriveAgentProfiles(ensemble, registry);
 * const registry2 = await loadProjectProfiles({ extra: profiles });
 * ```
 */
export function deriveAgentProfiles(ensemble: Ensemble, registry: ProfileRegistry): AgentProfiles {
  const profiles: ProfileMap = {};
  const agents = ensemble.agents.map((agent) => {
    const overrides = overridesOf(agent);
    const { model, provider } = agent.llmorc ?? {};
    if (agent.kind !== 'llm') return agent;
    if (agent.model_profile === undefined && model !== undefined && provider !== undefined) {
      const name = `${provider}/${model}@${agent.name}`;
      profiles[name] = { model, provider, ...overrides } as ModelProfile;
      return { ...agent, model_profile: name };
    }
    if (agent.model_profile === undefined || Object.keys(overrides).length === 0) return agent;
    let base: ModelProfile;
    try {
      base = registry.get(agent.model_profile);
    } catch {
      // An unknown profile: left as named, reported by validation with its file and field.
      return agent;
    }
    const name = `${agent.model_profile}@${agent.name}`;
    profiles[name] = { ...base, ...overrides };
    return { ...agent, model_profile: name };
  });
  return { ensemble: { ...ensemble, agents }, profiles };
}
