/**
 * What an ensemble file sees: the profiles of the nearest `colloquy.yaml`, the user's profiles,
 * and, for llm-orc projects, llm-orc's profiles (global config, `.llm-orc/config.yaml`,
 * `.llm-orc/profiles/`); plus the per-agent profiles llm-orc agents derive (inline models,
 * temperature and other overrides). A script-only ensemble names no profile, so its run loads
 * none of this (nor the profile schemas).
 * @module
 */
import { readEnv } from '../../../env.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ProfileMap, ProfileRegistry, ProfileSource } from '../../../models/profiles.js';
import { ConfigError } from '../../../errors.js';
import { findLlmOrcDir, llmOrcDirOf } from '../../../ensembles/llmorc/project.js';
import { EnsembleValidationError, loadEnsemble } from '../../../ensembles/load.js';
import type { Ensemble } from '../../../ensembles/schema.js';
import { checkScriptExists } from '../../../ensembles/scriptResolve.js';

/** The `.llm-orc` directory that applies to a file: the one it lies in, else the cwd's. */
export function llmOrcDirFor(file: string, cwd = process.cwd()): string | undefined {
  return llmOrcDirOf(file) ?? findLlmOrcDir(cwd);
}

/** The project directory (the parent of `.llm-orc`) that applies to a file, if any. */
export function projectDirFor(file: string, cwd = process.cwd()): string | undefined {
  const dir = llmOrcDirFor(file, cwd);
  return dir ? path.dirname(dir) : undefined;
}

async function llmOrcSources(file: string, cwd: string): Promise<ProfileSource[]> {
  const llmOrcDir = llmOrcDirFor(file, cwd);
  const { loadLlmOrcProfileSources } = await import('../../../ensembles/llmorc/profiles.js');
  return loadLlmOrcProfileSources({
    llmOrcDir,
    skipGlobal: readEnv('COLLOQUY_NO_LLM_ORC_GLOBAL'),
  });
}

/**
 * The profiles an ensemble file sees: those of the nearest `colloquy.yaml` from the file's
 * directory up to `cwd` (so `examples/ensembles/*.yaml` use `examples/ensembles/colloquy.yaml`),
 * else those of `cwd`; the user's profiles and llm-orc's are always included.
 */
export async function profilesForEnsemble(
  file: string,
  cwd = process.cwd(),
  extra?: ProfileMap,
): Promise<ProfileRegistry> {
  const root = path.resolve(cwd);
  const sources = await llmOrcSources(file, root);
  const { loadProjectProfiles, PROJECT_CONFIG_FILE } =
    await import('../../../models/projectConfig.js');
  for (let dir = path.dirname(path.resolve(file)); dir.startsWith(root); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, PROJECT_CONFIG_FILE)))
      return loadProjectProfiles({ cwd: dir, sources, extra });
    if (dir === root || dir === path.dirname(dir)) break;
  }
  return loadProjectProfiles({ cwd: root, sources, extra });
}

/** A loaded ensemble and the profile registry to run it with. */
export interface PreparedEnsemble {
  ensemble: Ensemble;
  /** Undefined for a script-only ensemble (no agent names a profile; none are loaded). */
  profiles?: ProfileRegistry;
  /** The llm-orc project directory, when the ensemble belongs to one. */
  projectDir?: string;
}

/** Whether any agent of an ensemble may need a model profile (every kind but a script). */
function needsProfiles(ensemble: Ensemble): boolean {
  return ensemble.agents.some((agent) => agent.kind !== 'script');
}

/**
 * Loads an ensemble for a run: validates it (script files included), and adds the per-agent
 * profiles of llm-orc agents. Profiles load only when an agent is not a script: the file is
 * validated first without them, then, for such ensembles (or an invalid file), again with the
 * known profile names.
 */
export async function prepareEnsemble(
  file: string,
  cwd = process.cwd(),
  options: { checkProfiles?: boolean } = {},
): Promise<PreparedEnsemble> {
  const projectDir = projectDirFor(file, cwd);
  const scriptsCheck = (ensemble: Ensemble) => {
    for (const agent of ensemble.agents) {
      if (agent.kind !== 'script' || agent.script === undefined) continue;
      const problem = checkScriptExists(agent.script, {
        baseDir: ensemble.baseDir ?? cwd,
        projectDir,
      });
      if (problem)
        throw new ConfigError(
          `${ensemble.file ?? ensemble.name}: agent "${agent.name}": ${problem}`,
        );
    }
  };
  let first: Ensemble | undefined;
  try {
    first = await loadEnsemble(file);
  } catch (error) {
    // An invalid file is validated again below with the profile names, so that every problem
    // (an unknown profile included) is reported at once.
    if (!(error instanceof EnsembleValidationError)) throw error;
  }
  if (first && !needsProfiles(first)) {
    scriptsCheck(first);
    return { ensemble: first, ...(projectDir ? { projectDir } : {}) };
  }
  const base = await profilesForEnsemble(file, cwd);
  const check = options.checkProfiles !== false;
  const loaded =
    first && !check ? first : await loadEnsemble(file, check ? { profileNames: base.names() } : {});
  scriptsCheck(loaded);
  const { deriveAgentProfiles } = await import('../../../ensembles/llmorc/agentProfiles.js');
  const derived = deriveAgentProfiles(loaded, base);
  const profiles = Object.keys(derived.profiles).length
    ? await profilesForEnsemble(file, cwd, derived.profiles)
    : base;
  return { ensemble: derived.ensemble, profiles, ...(projectDir ? { projectDir } : {}) };
}
