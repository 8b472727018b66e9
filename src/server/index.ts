/**
 * `colloquy/server`: serve agencies and ensembles over HTTP (REST, Server-Sent Events and an
 * OpenAI-compatible endpoint). Everything public is exported here by name.
 * @module
 */
export { createApp, DEFAULT_MAX_BODY_BYTES } from './app.js';
export type { AppOptions } from './app.js';
export { startServer } from './serve.js';
export type { RunningServer, StartServerOptions } from './serve.js';
export {
  createRegistry,
  importAgencies,
  loadRegistry,
  readConfig,
  resolveAgencyModule,
} from './registry.js';
export type {
  AgencyFactory,
  ImportAgenciesOptions,
  LoadRegistryOptions,
  RegistryOptions,
  ServerRegistry,
} from './registry.js';
export { inProcessExecutor } from './executor.js';
export type { CallExecutor, Executor, RunExecutor } from './executor.js';
export { DirectoryEnsembleCatalog } from './ensembleCatalog.js';
export type { DirectoryEnsembleCatalogOptions, EnsembleCatalog } from './ensembleCatalog.js';
export { EnsembleRuns } from './ensembleRuns.js';
export type {
  EnsembleRunsOptions,
  RunEvent,
  RunStatus,
  RunSummary,
  StartRunOptions,
} from './ensembleRuns.js';
export { assertSafeListen, bearerAuth, isLoopbackHost, tokensEqual } from './auth.js';
export type { BearerAuthOptions } from './auth.js';
export { HttpError, toErrorResponse } from './errors.js';
export type { ErrorBody } from './errors.js';
export { CHAT_ID_HEADER } from './routes/openai.js';
