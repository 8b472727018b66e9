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
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { modelProfileSchema } from './models/profile.js';
import { loadProfiles } from './models/profiles.js';
import type { LoadProfilesOptions, ProfileRegistry } from './models/profiles.js';
import { parseYamlWithSchema } from './yamlErrors.js';

/** The file name of the project configuration. */
export const PROJECT_CONFIG_FILE = 'colloquy.yaml';

/** The schema of `colloquy.yaml`. Unknown keys are errors. */
export const projectConfigSchema = z
  .object({
    /** Named model profiles; they override the user's profiles of the same name. */
    profiles: z.record(z.string().min(1), modelProfileSchema).optional(),
    /** Where ensemble YAML files live, relative to the config file (default `ensembles`). */
    ensembles_dir: z.string().min(1).default('ensembles'),
    /** The store URL or path (the stores module interprets it). */
    store: z.string().min(1).optional(),
    /** Where agency definitions live, relative to the config file. */
    agencies: z.string().min(1).optional(),
  })
  .strict();

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
  const baseDir = path.resolve(options.cwd ?? process.cwd());
  const configPath = path.join(baseDir, PROJECT_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { ...projectConfigSchema.parse({}), configPath: undefined, baseDir };
    }
    throw new ConfigError(
      `Could not read ${configPath}: ${(error as Error).message}. Check the file's permissions.`,
      {
        cause: error,
      },
    );
  }
  return { ...parseProjectConfig(text, configPath), configPath, baseDir };
}

/** Options of {@link loadProjectProfiles}. */
export interface LoadProjectProfilesOptions extends Omit<LoadProfilesOptions, 'project'> {
  /** The directory holding `colloquy.yaml` (default `process.cwd()`). */
  cwd?: string;
  /** An already loaded project config, to avoid reading `colloquy.yaml` again. */
  projectConfig?: ProjectConfig;
}

/**
 * Loads the user's profiles and those of the project's `colloquy.yaml` (project ones win).
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
