/**
 * What an ensemble file sees: the profiles of the nearest `colloquy.yaml`, the user's profiles,
 * and, for llm-orc projects, llm-orc's profiles (global config, `.llm-orc/config.yaml`,
 * `.llm-orc/profiles/`); plus the per-agent profiles llm-orc agents derive (inline models,
 * temperature and other overrides).
 * @module
 */
import { readEnv } from '../../../env.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadProjectProfiles, PROJECT_CONFIG_FILE } from '../../../models/projectConfig.js';
import type { ProfileMap, ProfileRegistry, ProfileSource } from '../../../models/profiles.js';
import { ConfigError } from '../../../errors.js';
import { deriveAgentProfiles } from '../../../ensembles/llmorc/agentProfiles.js';
import { findLlmOrcDir, llmOrcDirOf } from '../../../ensembles/llmorc/project.js';
import { loadLlmOrcProfileSources } from '../../../ensembles/llmorc/profiles.js';
import { loadEnsemble } from '../../../ensembles/load.js';
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
  profiles: ProfileRegistry;
  /** The llm-orc project directory, when the ensemble belongs to one. */
  projectDir?: string;
}

/**
 * Loads an ensemble for a run: validates it (script files included), and adds the per-agent
 * profiles of llm-orc agents.
 */
export async function prepareEnsemble(
  file: string,
  cwd = process.cwd(),
  options: { checkProfiles?: boolean } = {},
): Promise<PreparedEnsemble> {
  const base = await profilesForEnsemble(file, cwd);
  const projectDir = projectDirFor(file, cwd);
  const loaded = await loadEnsemble(file, {
    profileNames: options.checkProfiles === false ? undefined : base.names(),
  });
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
  scriptsCheck(loaded);
  const derived = deriveAgentProfiles(loaded, base);
  const profiles = Object.keys(derived.profiles).length
    ? await profilesForEnsemble(file, cwd, derived.profiles)
    : base;
  return { ensemble: derived.ensemble, profiles, ...(projectDir ? { projectDir } : {}) };
}
