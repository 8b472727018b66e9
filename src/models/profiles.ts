/**
 * The profile registry: named model profiles merged from the user's file
 * (`~/.config/colloquy/profiles.yaml`), the project's `colloquy.yaml` and programmatic extras,
 * in that order (later ones override earlier ones). The schema of `colloquy.yaml` lives here, so
 * that `loadProfiles({ cwd })` reads a project's profiles without the config layer (`config.ts`
 * re-exports it and adds the rest of the project configuration).
 * @module
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_ENSEMBLES_DIR, PROJECT_CONFIG_FILE } from '../defaults.js';
import { ColloquyError, ConfigError } from '../errors.js';
import { parseYamlWithSchema } from '../yamlErrors.js';
import { scheduleMapSchema } from '../schedules/spec.js';
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
  /**
   * A broken profile of this source (invalid fields, unknown provider or fallback, a fallback
   * cycle) does not stop loading: the error is raised when the profile is used. llm-orc's config
   * files are read this way, as llm-orc reads them.
   */
  lenient?: boolean;
}

export { PROJECT_CONFIG_FILE };

/** The schema of `colloquy.yaml`. Unknown keys are errors. */
export const projectConfigSchema = z
  .object({
    /** Named model profiles; they override the user's profiles of the same name. */
    profiles: z.record(z.string().min(1), modelProfileSchema).optional(),
    /** Where ensemble YAML files live, relative to the config file (default `ensembles`). */
    ensembles_dir: z.string().min(1).default(DEFAULT_ENSEMBLES_DIR),
    /** The store URL or path (the stores module interprets it). */
    store: z.string().min(1).optional(),
    /** Where agency definitions live, relative to the config file. */
    agencies: z.string().min(1).optional(),
    /** Schedules by id: each ticks on `cron` or `every` and runs an agency or an ensemble (docs/runs.md). */
    schedules: scheduleMapSchema.optional(),
  })
  .strict();

/** A `colloquy.yaml` as read from a directory: its settings, path and directory. */
export interface ProjectConfigFile {
  config: z.output<typeof projectConfigSchema>;
  /** The absolute path of the file read, or undefined when the directory has none. */
  configPath: string | undefined;
  /** The directory relative paths in the file resolve from. */
  baseDir: string;
}

/**
 * Reads `colloquy.yaml` from `dir` (no upward search). A missing file gives the defaults; an
 * unreadable or invalid one throws a ConfigError naming `file:line:column` and the fix.
 */
export async function readProjectConfigFile(dir: string): Promise<ProjectConfigFile> {
  const baseDir = path.resolve(dir);
  const configPath = path.join(baseDir, PROJECT_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { config: projectConfigSchema.parse({}), configPath: undefined, baseDir };
    throw new ConfigError(
      `Could not read ${configPath}: ${(error as Error).message}. Check the file's permissions.`,
      { cause: error },
    );
  }
  return {
    config: parseYamlWithSchema(configPath, text, projectConfigSchema),
    configPath,
    baseDir,
  };
}

/** Options of {@link loadProfiles}. */
export interface LoadProfilesOptions {
  /**
   * The directory whose `colloquy.yaml` holds the project's profiles (default `process.cwd()`;
   * no upward search). Ignored when `project` is given.
   */
  cwd?: string;
  /** The user's profiles file (default `~/.config/colloquy/profiles.yaml`); missing is fine. */
  userConfigPath?: string;
  /** Profiles given in code; they override every file. */
  extra?: ProfileMap;
  /**
   * The project's profiles and where they came from, when the caller has read them already
   * (`loadProjectProfiles` passes its loaded config). Default: read from `cwd`'s `colloquy.yaml`.
   */
  project?: ProjectProfiles;
  /** More sources, between the user's file and the project's (e.g. llm-orc's config files). */
  sources?: readonly ProfileSource[];
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

interface Entry {
  profile: ModelProfile;
  source: string;
  baseDir: string;
  lenient?: boolean;
  /** Why a lenient profile cannot be used (raised by `get`). */
  broken?: string;
}

/** The problem of a profile's fallback chain (unknown name or cycle), or undefined. */
function fallbackProblem(start: string, profiles: Map<string, Entry>): string | undefined {
  const seen = [start];
  let next = profiles.get(start)!.profile.fallback_model_profile;
  while (next !== undefined) {
    const current = profiles.get(seen.at(-1)!)!;
    if (!profiles.has(next) || profiles.get(next)!.broken) {
      const what = profiles.has(next) ? 'a broken profile' : 'not a profile';
      return (
        `Profile "${seen.at(-1)}" (${current.source}) has fallback_model_profile "${next}", ` +
        `which is ${what}. Known profiles: ${[...profiles.keys()].sort().join(', ')}.`
      );
    }
    if (seen.includes(next)) {
      return `Fallback profiles form a cycle: ${[...seen, next].join(' -> ')}. Remove one fallback_model_profile.`;
    }
    seen.push(next);
    next = profiles.get(next)!.profile.fallback_model_profile;
  }
  return undefined;
}

/**
 * Throws a ConfigError when a fallback names an unknown profile or fallbacks form a cycle; for a
 * lenient profile the problem is kept and raised when the profile is used.
 */
function checkFallbacks(profiles: Map<string, Entry>): void {
  for (const [start, entry] of profiles) {
    if (entry.broken) continue;
    const problem = fallbackProblem(start, profiles);
    if (problem === undefined) continue;
    if (!entry.lenient) throw new ConfigError(problem);
    entry.broken = problem;
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
  const entries = new Map<string, Entry>();
  for (const { source, baseDir, profiles, lenient } of sources) {
    for (const [name, raw] of Object.entries(profiles)) {
      const parsed = modelProfileSchema.safeParse(raw);
      let broken: string | undefined;
      if (!parsed.success) {
        broken = `Profile "${name}" (${source}) is invalid: ${parsed.error.issues
          .map((issue) => `${issue.path.join('.') || '(profile)'}: ${issue.message}`)
          .join('; ')}. Fix the profile, or stop using it.`;
      } else {
        try {
          validateProfile(name, parsed.data, source);
        } catch (error) {
          broken = (error as Error).message;
        }
      }
      if (broken !== undefined && !lenient) throw new ConfigError(broken);
      const profile = parsed.success ? parsed.data : ({ ...(raw as object) } as ModelProfile);
      entries.set(name, { profile, source, baseDir, lenient, broken });
    }
  }
  checkFallbacks(entries);
  const entry = (name: string) => {
    const found = entries.get(name);
    if (found?.broken) throw new ConfigError(found.broken);
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
    source: (name) => entries.get(name)?.source ?? entry(name).source,
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

async function projectProfilesOf(options: LoadProfilesOptions): Promise<ProjectProfiles> {
  if (options.project) return options.project;
  const { config, configPath, baseDir } = await readProjectConfigFile(options.cwd ?? process.cwd());
  return { baseDir, configPath, profiles: config.profiles };
}

/**
 * Loads the profiles of the user's file, the project's `colloquy.yaml` (in `cwd`, default the
 * working directory) and `extra`; project profiles override user ones, and `extra` overrides both.
 *
 * @example
 * ```ts
 * const registry = await loadProfiles({ cwd: '/path/to/project' }); // user file + its colloquy.yaml
 * const model = createModel('fast', registry);
 * ```
 */
export async function loadProfiles(options: LoadProfilesOptions = {}): Promise<ProfileRegistry> {
  const userPath = path.resolve(options.userConfigPath ?? defaultUserProfilesPath());
  const project = await projectProfilesOf(options);
  const sources: ProfileSource[] = [
    {
      source: userPath,
      baseDir: path.dirname(userPath),
      profiles: await readUserProfiles(userPath),
    },
    ...(options.sources ?? []),
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
