/**
 * llm-orc's model profiles as Colloquy profile sources, merged in llm-orc's order: the global
 * `config.yaml`, the global `profiles/`, the project's `config.yaml`, the project's `profiles/`
 * (`*.local.yaml` files last). Sources are lenient: a broken profile fails only when used.
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../errors.js';
import { modelProfileSchema } from '../../models/profile.js';
import type { ProfileMap, ProfileSource } from '../../models/profiles.js';
import { checkYamlLimits } from '../../yamlErrors.js';
import { llmOrcGlobalDir } from './project.js';

const PROFILE_KEYS = new Set(Object.keys(modelProfileSchema.shape));

/** An llm-orc profile with the keys Colloquy's profile schema knows (others, e.g. `name`, dropped). */
export function toColloquyProfile(raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter(([key]) => PROFILE_KEYS.has(key)));
}

async function readYaml(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(
      `Could not read ${file}: ${(error as Error).message}. Check its permissions.`,
    );
  }
  const limit = checkYamlLimits(text);
  if (limit) throw new ConfigError(`${file}: ${limit.message}.`);
  try {
    return parseYaml(text) as unknown;
  } catch (error) {
    throw new ConfigError(`${file}: invalid YAML: ${(error as Error).message.split('\n')[0]}.`, {
      cause: error,
    });
  }
}

function profilesOfMap(value: unknown): ProfileMap {
  const map = (value as { model_profiles?: unknown } | undefined)?.model_profiles;
  if (!map || typeof map !== 'object' || Array.isArray(map)) return {};
  return Object.fromEntries(
    Object.entries(map).map(([name, profile]) => [name, toColloquyProfile(profile)]),
  ) as ProfileMap;
}

/** The profiles of one `config.yaml` (its `model_profiles:`), as a lenient source. */
export async function configFileSource(file: string): Promise<ProfileSource | undefined> {
  const value = await readYaml(file);
  if (value === undefined) return undefined;
  return {
    source: file,
    baseDir: path.dirname(file),
    profiles: profilesOfMap(value),
    lenient: true,
  };
}

/**
 * The profiles of a `profiles/` directory: each file with a `name:` is one profile (as llm-orc
 * reads them); a file with `model_profiles:` contributes all of its entries.
 */
export async function profilesDirSources(dir: string): Promise<ProfileSource[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => /\.ya?ml$/i.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const ordered = [
    ...names.filter((name) => !/\.local\.ya?ml$/i.test(name)),
    ...names.filter((name) => /\.local\.ya?ml$/i.test(name)),
  ];
  const sources: ProfileSource[] = [];
  for (const name of ordered) {
    const file = path.join(dir, name);
    const value = (await readYaml(file)) as Record<string, unknown> | undefined;
    const profiles: ProfileMap = profilesOfMap(value);
    if (value && typeof value.name === 'string')
      profiles[value.name] = toColloquyProfile(value) as ProfileMap[string];
    sources.push({ source: file, baseDir: dir, profiles, lenient: true });
  }
  return sources;
}

/** Options of {@link loadLlmOrcProfileSources}. */
export interface LlmOrcProfileOptions {
  /** The project's `.llm-orc` directory, if any. */
  llmOrcDir?: string;
  /** Where `XDG_CONFIG_HOME` is read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Skip the global config (tests). */
  skipGlobal?: boolean;
}

/**
 * The profile sources of an llm-orc setup, lowest priority first.
 *
 * @example
 * ```ts
 * const sources = await loadLlmOrcProfileSources({ llmOrcDir: findLlmOrcDir() });
 * const registry = await loadProjectProfiles({ sources });
 * ```
 */
export async function loadLlmOrcProfileSources(
  options: LlmOrcProfileOptions = {},
): Promise<ProfileSource[]> {
  const dirs = options.skipGlobal ? [] : [llmOrcGlobalDir(options.env)];
  if (options.llmOrcDir) dirs.push(options.llmOrcDir);
  const sources: ProfileSource[] = [];
  for (const dir of dirs) {
    const config = await configFileSource(path.join(dir, 'config.yaml'));
    if (config) sources.push(config);
    sources.push(...(await profilesDirSources(path.join(dir, 'profiles'))));
  }
  return sources;
}
