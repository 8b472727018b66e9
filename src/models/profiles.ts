/**
 * The profile registry: named model profiles merged from the user's file
 * (`~/.config/colloquy/profiles.yaml`), the project's `colloquy.yaml` and programmatic extras,
 * in that order (later ones override earlier ones).
 * @module
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ColloquyError, ConfigError } from '../errors.js';
import { parseYamlWithSchema } from '../yamlErrors.js';
import { modelProfileSchema } from './profile.js';
import type { ModelProfile } from './profile.js';

/** Named profiles, as read from a file or given in code. */
export type ProfileMap = Record<string, ModelProfile>;

/** The schema of the user's profiles file: `profiles: { name: profile }`. */
export const userProfilesFileSchema = z
  .object({ profiles: z.record(z.string().min(1), modelProfileSchema).default({}) })
  .strict();

/** Profiles by name, with where each came from. */
export interface ProfileRegistry {
  /** Every profile name, sorted. */
  names(): string[];
  /** Whether a profile of that name exists. */
  has(name: string): boolean;
  /** The profile; throws `PROFILE_NOT_FOUND` listing the known names. */
  get(name: string): ModelProfile;
  /** Where the profile was defined (a file path, or `code`). */
  source(name: string): string;
  /** The directory that relative paths in the profile (`script_file`, `cassette`) resolve from. */
  baseDir(name: string): string;
}

/** One source of profiles for {@link createProfileRegistry}. */
export interface ProfileSource {
  /** A file path, or a label such as `code`. */
  source: string;
  /** The directory for relative paths in these profiles. */
  baseDir: string;
  profiles: ProfileMap;
}

/** Options of {@link loadProfiles}. */
export interface LoadProfilesOptions {
  /** The user's profiles file (default `~/.config/colloquy/profiles.yaml`); missing is fine. */
  userConfigPath?: string;
  /** Profiles given in code; they override every file. */
  extra?: ProfileMap;
  /**
   * The project's profiles and where they came from (the base layer's `loadProjectProfiles`
   * reads them from `colloquy.yaml`). Default: no project profiles, paths relative to the cwd.
   */
  project?: ProjectProfiles;
}

/** A project's profiles as the config loader found them; models never read config files. */
export interface ProjectProfiles {
  /** The directory relative profile paths resolve from. */
  baseDir: string;
  /** The file they were read from, if any (named in errors). */
  configPath?: string | undefined;
  /** The profiles themselves. */
  profiles?: ProfileMap | undefined;
}

/** The default location of the user's profiles file. */
export function defaultUserProfilesPath(): string {
  return path.join(os.homedir(), '.config', 'colloquy', 'profiles.yaml');
}

/** Checks the provider-specific fields of one profile; throws a ConfigError naming the fix. */
export function validateProfile(name: string, profile: ModelProfile, source: string): void {
  const where = `Profile "${name}" (${source})`;
  if (profile.provider === 'scripted' && !profile.script && !profile.script_file) {
    throw new ConfigError(
      `${where} uses provider scripted but has neither script nor script_file. Add one of them.`,
    );
  }
  if (profile.provider === 'replay' && !profile.cassette) {
    throw new ConfigError(
      `${where} uses provider replay but has no cassette. Set cassette to a recorded file.`,
    );
  }
}

/** Throws a ConfigError when a fallback names an unknown profile or fallbacks form a cycle. */
function checkFallbacks(profiles: Map<string, { profile: ModelProfile; source: string }>): void {
  for (const [start, entry] of profiles) {
    const seen = [start];
    let next = entry.profile.fallback_model_profile;
    while (next !== undefined) {
      if (!profiles.has(next)) {
        throw new ConfigError(
          `Profile "${seen.at(-1)}" (${profiles.get(seen.at(-1)!)!.source}) has fallback_model_profile "${next}", ` +
            `which is not a profile. Known profiles: ${[...profiles.keys()].sort().join(', ')}.`,
        );
      }
      if (seen.includes(next)) {
        throw new ConfigError(
          `Fallback profiles form a cycle: ${[...seen, next].join(' -> ')}. Remove one fallback_model_profile.`,
        );
      }
      seen.push(next);
      next = profiles.get(next)!.profile.fallback_model_profile;
    }
  }
}

/**
 * Builds a registry from sources, later sources overriding earlier ones. Validates provider fields
 * and fallbacks (unknown names, cycles).
 *
 * @example
 * ```ts
 * const registry = createProfileRegistry([
 *   { source: 'code', baseDir: process.cwd(), profiles: { demo: { provider: 'scripted', model: 'demo', script: ['Hi'] } } },
 * ]);
 * ```
 */
export function createProfileRegistry(sources: readonly ProfileSource[]): ProfileRegistry {
  const entries = new Map<string, { profile: ModelProfile; source: string; baseDir: string }>();
  for (const { source, baseDir, profiles } of sources) {
    for (const [name, raw] of Object.entries(profiles)) {
      const parsed = modelProfileSchema.safeParse(raw);
      if (!parsed.success) {
        throw new ConfigError(`Profile "${name}" (${source}) is invalid: ${parsed.error.message}`);
      }
      validateProfile(name, parsed.data, source);
      entries.set(name, { profile: parsed.data, source, baseDir });
    }
  }
  checkFallbacks(entries);
  const entry = (name: string) => {
    const found = entries.get(name);
    if (found) return found;
    const known = [...entries.keys()].sort();
    throw new ColloquyError(
      'PROFILE_NOT_FOUND',
      `Model profile "${name}" is not defined. Known profiles: ${known.length ? known.join(', ') : '(none)'}. ` +
        'Define it under profiles: in colloquy.yaml or ~/.config/colloquy/profiles.yaml.',
    );
  };
  return {
    names: () => [...entries.keys()].sort(),
    has: (name) => entries.has(name),
    get: (name) => entry(name).profile,
    source: (name) => entry(name).source,
    baseDir: (name) => entry(name).baseDir,
  };
}

async function readUserProfiles(file: string): Promise<ProfileMap> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(
      `Could not read ${file}: ${(error as Error).message}. Check the file's permissions.`,
      {
        cause: error,
      },
    );
  }
  return parseYamlWithSchema(file, text, userProfilesFileSchema).profiles;
}

/**
 * Loads the profiles of the user's file, the project's `colloquy.yaml` and `extra`; project
 * profiles override user ones, and `extra` overrides both.
 *
 * @example
 * ```ts
 * const registry = await loadProfiles({ project: { baseDir: process.cwd() } });
 * const model = createModel('fast', registry);
 * ```
 */
export async function loadProfiles(options: LoadProfilesOptions = {}): Promise<ProfileRegistry> {
  const userPath = path.resolve(options.userConfigPath ?? defaultUserProfilesPath());
  const project: ProjectProfiles = options.project ?? { baseDir: process.cwd() };
  const sources: ProfileSource[] = [
    {
      source: userPath,
      baseDir: path.dirname(userPath),
      profiles: await readUserProfiles(userPath),
    },
    {
      source: project.configPath ?? path.join(project.baseDir, 'colloquy.yaml'),
      baseDir: project.baseDir,
      profiles: project.profiles ?? {},
    },
  ];
  if (options.extra)
    sources.push({ source: 'code', baseDir: project.baseDir, profiles: options.extra });
  return createProfileRegistry(sources);
}
