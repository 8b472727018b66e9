/**
 * The ensembles a server offers: the YAML files of a directory, by file name without extension.
 * Names are looked up among the directory's files only, so a request can never name a path.
 * @module
 */
import { getDefaultLogger } from '../logger.js';
import path from 'node:path';
import { listEnsembleFiles, loadEnsemble } from '../ensembles/load.js';
import type { Ensemble } from '../ensembles/schema.js';
import type { ProfileRegistry } from '../models/profiles.js';
import { notFound } from './errors.js';

/** What the ensemble routes need from a set of ensembles. */
export interface EnsembleCatalog {
  /** Names of the ensembles offered, sorted. */
  names(): Promise<string[]>;
  /** Loads and validates one; throws a 404 `ENSEMBLE_NOT_FOUND` for an unknown name. */
  load(name: string): Promise<Ensemble>;
  /** The ensemble whose `name:` field is `ensembleName` (runs record that name), or null. */
  findByEnsembleName(ensembleName: string): Promise<Ensemble | null>;
}

/** Options of {@link DirectoryEnsembleCatalog}. */
export interface DirectoryEnsembleCatalogOptions {
  /** The directory of `.yaml`/`.yml` files (a missing directory offers none). */
  dir: string;
  /** The profile registry; when given, agents naming unknown profiles fail validation. */
  profiles?: () => Promise<ProfileRegistry>;
}

/** An {@link EnsembleCatalog} over a directory. */
export class DirectoryEnsembleCatalog implements EnsembleCatalog {
  readonly dir: string;
  readonly #profiles: (() => Promise<ProfileRegistry>) | undefined;

  constructor(options: DirectoryEnsembleCatalogOptions) {
    this.dir = path.resolve(options.dir);
    this.#profiles = options.profiles;
  }

  async #files(): Promise<Map<string, string>> {
    const files = await listEnsembleFiles(this.dir);
    return new Map(files.map((file) => [path.basename(file).replace(/\.ya?ml$/i, ''), file]));
  }

  async names(): Promise<string[]> {
    return [...(await this.#files()).keys()].sort();
  }

  async load(name: string): Promise<Ensemble> {
    const files = await this.#files();
    const file = files.get(name);
    if (!file) {
      throw notFound(
        'ENSEMBLE_NOT_FOUND',
        `Ensemble "${name}"`,
        [...files.keys()],
        `Add ${name}.yaml to the server's ensembles directory, or pick a listed one (GET /ensembles).`,
      );
    }
    const profileNames = this.#profiles ? (await this.#profiles()).names() : undefined;
    return loadEnsemble(file, profileNames ? { profileNames } : {});
  }

  async findByEnsembleName(ensembleName: string): Promise<Ensemble | null> {
    const names = await this.names();
    const ordered = [ensembleName, ...names.filter((name) => name !== ensembleName)].filter(
      (name) => names.includes(name),
    );
    for (const name of ordered) {
      let ensemble: Ensemble;
      try {
        ensemble = await this.load(name);
      } catch (error) {
        // The file of that very name is broken: its error says what to fix, "not found" would not.
        if (name === ensembleName) throw error;
        // Another broken file must not hide the others: say which and why, then keep looking.
        getDefaultLogger().warn(
          { component: 'ensembleCatalog', file: name, err: error },
          'skipped an ensemble file that does not load while looking for an ensemble by name',
        );
        continue;
      }
      if (ensemble.name === ensembleName) return ensemble;
    }
    return null;
  }
}
