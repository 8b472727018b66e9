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
  FallbackAgencies,
  AgencyFactory,
  ImportAgenciesOptions,
  LoadRegistryOptions,
  ModuleImporter,
  RegistryOptions,
  ServerRegistry,
} from './registry.js';
export { inProcessExecutor } from './executor.js';
export type { CallExecutor, Executor, ExecutorCallOptions, RunExecutor } from './executor.js';
// Background calls: where they are kept, and what streaming routes share (issue 29).
export { MemoryCallRunLog } from './runs/runLog.js';
export type {
  CallRunEvent,
  CallRunFailedEvent,
  CallRunLog,
  CallRunStartedEvent,
  CallRunStatus,
  CallRunSummary,
} from './runs/runLog.js';
export { RUN_ID_HEADER } from './runs/streamedRun.js';
export type { OnDisconnect } from './runs/streamedRun.js';
export { DirectoryEnsembleCatalog } from './ensembleCatalog.js';
export type { DirectoryEnsembleCatalogOptions, EnsembleCatalog } from './ensembleCatalog.js';
export { EnsembleRuns } from './ensembleRuns.js';
export type {
  EnsembleRunsOptions,
  RunCancellation,
  RunEvent,
  RunStatus,
  RunSummary,
  StartRunOptions,
} from './ensembleRuns.js';
export { assertSafeListen, bearerAuth, isLoopbackHost, tokensEqual } from './auth.js';
export type { BearerAuthOptions } from './auth.js';
export { HttpError, STATUS_BY_CODE, statusOf, toErrorResponse } from './errors.js';
export type { ErrorBody, HttpErrorOptions } from './errors.js';
export { CHAT_ID_HEADER } from './routes/openai.js';
export { ChatDirectory } from './chats.js';
export { InFlight } from './inflight.js';
// Web-page defences and client-safe errors (issue 17).
export { hostCheck, isAllowedHost } from './hostCheck.js';
export type { HostCheckOptions } from './hostCheck.js';
export { crossOrigin } from './crossOrigin.js';
export type { CrossOriginOptions } from './crossOrigin.js';
export { requireJsonBody } from './jsonBody.js';
export type { JsonBodyOptions } from './jsonBody.js';
export { publicError, publicMessage } from './publicError.js';
export { currentPrincipal, withPrincipal } from './auth/principal.js';
export type { Authenticate, Principal } from './auth/principal.js';
export {
  authenticatorFor,
  InvalidTokenError,
  jwtAuthenticator,
  jwtOptionsFromEnv,
} from './auth/jwt.js';
export type { JwtAuthOptions } from './auth/jwt.js';
export { OwnerRecords } from './ownership/owners.js';
export type { OwnedKind } from './ownership/owners.js';
export { encodeChatIdHeader, decodeChatIdHeader } from './chatIdHeader.js';
export { MAX_ERROR_MESSAGE_CHARS, boundText } from './publicError.js';
export { FRAME_HEADERS, frameHeaders } from './frameHeaders.js';
// Schedules and webhooks (docs/runs.md).
export { LocalSchedules } from './schedules/localSchedules.js';
export type { LocalSchedulesOptions } from './schedules/localSchedules.js';
export type { NewSchedule, Schedules, ScheduleStatus, ScheduleView } from './schedules/types.js';
export type { ScheduleSpec } from '../schedules/spec.js';
export { deliverWebhook, webhookSignature } from './runs/webhook.js';
export type { DeliverWebhookOptions, Webhook, WebhookDelivery } from './runs/webhook.js';
