/**
 * Defaults that more than one module applies, in one dependency-free place (the CLI imports it
 * without loading the server or the ensemble engine). A default used by one module stays there.
 * @module
 */

/** The port `colloquy serve` and `colloquy dev` listen on. */
export const DEFAULT_PORT = 8787;

/** How many agents of one ensemble step run at once. */
export const DEFAULT_ENSEMBLE_CONCURRENCY = 8;

/** The file name of the project configuration (read by the config loader and by the CLI). */
export const PROJECT_CONFIG_FILE = 'colloquy.yaml';

/** Where ensemble YAML files live, relative to `colloquy.yaml` (its `ensembles_dir` default). */
export const DEFAULT_ENSEMBLES_DIR = 'ensembles';
