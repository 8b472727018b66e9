/**
 * What `colloquy eval run` runs and scores with: the target (`--agency demo|MODULE[#export]` or
 * `--ensemble FILE|NAME`), the live model of `--profile`, the judge of `--judge-profile` and the
 * embedder of `--embedder MODULE#export`.
 * @module
 */
import path from 'node:path';
import type { Model } from '@openai/agents-core';
import { isAgencyLike } from '../../agency/isAgencyLike.js';
import { ConfigError } from '../../errors.js';
import type { Embedder } from '../../evals/scorers/similarity.js';
import type { AgencyFactory, EvalTarget } from '../../evals/targets.js';
import type { ProfileRegistry } from '../../models/profiles.js';
import { cliContext } from '../context.js';

/** The project's profiles (loaded once per CLI process). */
function profiles(): Promise<ProfileRegistry> {
  const context = cliContext();
  context.profiles ??= import('../../models/projectConfig.js').then(({ loadProjectProfiles }) =>
    loadProjectProfiles({ cwd: process.cwd() }),
  );
  return context.profiles;
}

/** A maker of `profile`'s model (keys checked now, before any case runs). */
export async function profileModel(profile: string): Promise<() => Model> {
  const { checkProfileKeys } = await import('../../models/apiKeys.js');
  const { createModel } = await import('../../models/resolve.js');
  const loaded = await profiles();
  checkProfileKeys(profile, loaded);
  return () => createModel(profile, loaded);
}

async function moduleExport(
  specifier: string,
): Promise<{ file: string; value: unknown; name: string }> {
  const { importModuleExports, parseModuleSpecifier, resolveModuleFile } =
    await import('../loadModule.js');
  const { module, exportName } = parseModuleSpecifier(specifier);
  const file = resolveModuleFile(module, process.cwd());
  const exports = await importModuleExports(file);
  if (exportName !== undefined) {
    if (!(exportName in exports))
      throw new ConfigError(
        `${file} has no export "${exportName}" (its exports: ${Object.keys(exports).join(', ') || 'none'}).`,
      );
    return { file, value: exports[exportName], name: exportName };
  }
  if (exports.default !== undefined) return { file, value: exports.default, name: 'default' };
  const agencies = Object.entries(exports).filter(([, value]) => isAgencyLike(value));
  if (agencies.length !== 1)
    throw new ConfigError(
      `${file} has ${agencies.length} Agency exports and no default; name one: ${path.basename(file)}#EXPORT.`,
    );
  return { file, value: agencies[0]![1], name: agencies[0]![0] };
}

/** The agency target `--agency` names: `demo`, or a module exporting an Agency or a factory. */
export async function agencyTargetOf(spec: string): Promise<EvalTarget> {
  const { agencyTarget } = await import('../../evals/targets.js');
  if (spec === 'demo') {
    const { createDemoAgency } = await import('../../demo/demoAgency.js');
    const factory: AgencyFactory = ({ model, threads }) =>
      createDemoAgency({ threads, ...(model ? { model: () => model } : {}) });
    return agencyTarget(factory, { name: 'demo' });
  }
  const { file, value, name } = await moduleExport(spec);
  if (isAgencyLike(value)) return agencyTarget(value);
  if (typeof value === 'function')
    return agencyTarget(value as AgencyFactory, {
      name: `${path.basename(file)}${name === 'default' ? '' : `#${name}`}`,
    });
  throw new ConfigError(
    `${file}#${name} is neither an Agency nor a function building one ({ model, threads }) => Agency.`,
  );
}

/** The ensemble target `--ensemble` names (a file, or a name in ensembles_dir). */
export async function ensembleTargetOf(spec: string): Promise<EvalTarget> {
  const { loadEnsemble } = await import('../../ensembles/load.js');
  const { ensembleTarget } = await import('../../evals/targets.js');
  return ensembleTarget(await loadEnsemble(spec), { profiles: await profiles() });
}

/** The judge of `--judge-profile`: that profile, or the one a judge scorer names. */
export function judgeOf(
  fallback: string | undefined,
): (profile: string | undefined) => Promise<Model> {
  return async (profile) => {
    const name = profile ?? fallback;
    if (!name)
      throw new ConfigError(
        'A judge scorer names no profile and --judge-profile was not given. Pass --judge-profile P, or set "profile" on the scorer.',
      );
    return (await profileModel(name))();
  };
}

/** The embedder a module exports (`MODULE#export`): an object with `dimensions` and `embed()`. */
export async function embedderOf(spec: string): Promise<Embedder> {
  const { file, value, name } = await moduleExport(spec);
  const embedder = value as Partial<Embedder> | undefined;
  if (!embedder || typeof embedder.embed !== 'function' || typeof embedder.dimensions !== 'number')
    throw new ConfigError(
      `${file}#${name} is not an Embedder ({ dimensions: number, embed(texts) }).`,
    );
  return embedder as Embedder;
}
