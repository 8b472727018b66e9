/**
 * The project configuration, `colloquy.yaml`, read from the working directory.
 *
 * ```yaml
 * profiles:
 *   fast: { provider: openai, model: gpt-4.1-mini }
 * ensembles_dir: ensembles
 * store: sqlite:.colloquy/colloquy.db
 * agencies: agencies
 * ```
 * @module
 */
import { z } from 'zod';
import { loadProfiles, projectConfigSchema, readProjectConfigFile } from './profiles.js';
import type { LoadProfilesOptions, ProfileRegistry } from './profiles.js';
import { parseYamlWithSchema } from '../yamlErrors.js';

// The schema lives with the profile loader, so that `loadProfiles({ cwd })` can read a project's
// profiles; this module adds what the rest of Colloquy reads of the project configuration.
export { PROJECT_CONFIG_FILE, projectConfigSchema } from './profiles.js';

/** The project configuration, with defaults applied. */
export type ProjectConfig = z.output<typeof projectConfigSchema> & {
  /** The absolute path of the `colloquy.yaml` read, or undefined when there is none. */
  configPath: string | undefined;
  /** The directory relative paths in the config are resolved from. */
  baseDir: string;
};

/** Options of {@link loadProjectConfig}. */
export interface LoadProjectConfigOptions {
  /** The directory holding `colloquy.yaml` (default `process.cwd()`); no upward search. */
  cwd?: string;
}

/**
 * Parses the text of a `colloquy.yaml`. Throws a ConfigError naming `file:line:column`, the path
 * and what was expected for every problem.
 */
export function parseProjectConfig(
  text: string,
  file: string,
): z.output<typeof projectConfigSchema> {
  return parseYamlWithSchema(file, text, projectConfigSchema);
}

/**
 * Loads `colloquy.yaml` from `cwd`. A missing file gives the defaults; an invalid one throws a
 * ConfigError (`CONFIG_INVALID`) with positions.
 *
 * @example
 * ```ts
 * const config = await loadProjectConfig({ cwd: process.cwd() });
 * console.log(Object.keys(config.profiles ?? {}), config.ensembles_dir);
 * ```
 */
export async function loadProjectConfig(
  options: LoadProjectConfigOptions = {},
): Promise<ProjectConfig> {
  const { config, configPath, baseDir } = await readProjectConfigFile(options.cwd ?? process.cwd());
  return { ...config, configPath, baseDir };
}

/** Options of {@link loadProjectProfiles}. */
export interface LoadProjectProfilesOptions extends Omit<LoadProfilesOptions, 'project'> {
  /** The directory holding `colloquy.yaml` (default `process.cwd()`). */
  cwd?: string;
  /** An already loaded project config, to avoid reading `colloquy.yaml` again. */
  projectConfig?: ProjectConfig;
}

/**
 * Loads the user's profiles and those of the project's `colloquy.yaml` (project ones win): the
 * same as `loadProfiles({ cwd })`, reusing an already loaded `projectConfig` when given.
 *
 * @example
 * ```ts
 * const registry = await loadProjectProfiles({ cwd: process.cwd() });
 * ```
 */
export async function loadProjectProfiles(
  options: LoadProjectProfilesOptions = {},
): Promise<ProfileRegistry> {
  const { cwd, projectConfig, ...rest } = options;
  const project = projectConfig ?? (await loadProjectConfig({ cwd }));
  return loadProfiles({ ...rest, project });
}
