/**
 * The HTTP app: Hono routes over a {@link ServerRegistry}. Pure (it opens nothing and listens on
 * nothing), so tests drive it with `app.request()` or any listener; `startServer` runs it on Node.
 * @module
 */
import { Hono } from 'hono';
import { bearerAuth } from './auth.js';
import { userAuth } from './auth/middleware.js';
import type { Authenticate } from './auth/principal.js';
import { OwnerRecords } from './ownership/owners.js';
import { ownership } from './ownership/scope.js';
import { scopedExecutor } from './ownership/scopedExecutor.js';
import type { RouteContext } from './context.js';
import { inProcessExecutor, type Executor } from './executor.js';
import { handleError, handleNotFound, payloadTooLarge } from './errors.js';
import { bodyGuard, requestGuard } from './guard.js';
import { InFlight } from './inflight.js';
import type { ServerRegistry } from './registry.js';
import { agencyRoutes } from './routes/agencies.js';
import { agUiRoutes } from './routes/agUi.js';
import { mcpRoutes } from './routes/mcp.js';
import { uiMessageRoutes } from './routes/uiMessages.js';
import { agencyGraphRoutes } from './routes/agencyGraph.js';
import { approvalRoutes } from './routes/approvals.js';
import { callRunRoutes } from './routes/callRuns.js';
import { chatListRoutes } from './routes/chatList.js';
import { networkRoutes } from './routes/network.js';
import { evalRoutes } from './routes/evals.js';
import { ensembleDetailRoutes } from './routes/ensembleDetail.js';
import { ensembleRoutes } from './routes/ensembles.js';
import { memoryRoutes } from './routes/memory.js';
import { openaiRoutes } from './routes/openai.js';
import { threadRoutes } from './routes/threads.js';
import { replayRoutes } from './routes/replay.js';
import { traceRoutes } from './routes/traces.js';
import { scheduleRoutes } from './routes/schedules.js';
import { noSchedules } from './schedules/none.js';
import type { Schedules } from './schedules/types.js';
import { CallRuns } from './runs/callRuns.js';
import { defaultRuntime, type ColloquyRuntime } from '../runtime.js';
import { studioRoutes } from './studio.js';

/** The default request body limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link createApp}. */
export interface AppOptions {
  /** What to serve. */
  registry: ServerRegistry;
  /** When set, every route but `/health` needs `Authorization: Bearer <apiKey>` (default: none). */
  apiKey?: string;
  /** Largest request body accepted, in bytes; larger ones get 413 (default {@link DEFAULT_MAX_BODY_BYTES}). */
  maxBodyBytes?: number;
  /** Tracks running requests for graceful shutdown (default: a new one). */
  inflight?: InFlight;
  /** Host names served besides loopback names; `'*'` serves any Host (default: none). See `hostCheck`. */
  allowedHosts?: readonly string[];
  /** Origins browsers may call from (CORS), or `'*'`; without it cross-origin requests get 403. */
  cors?: string | readonly string[];
  /** Where agency calls and ensemble runs run (default: {@link inProcessExecutor} of `registry`). */
  executor?: Executor;
  /**
   * Finds each request's user (e.g. `jwtAuthenticator`); every chat, run and trace is then scoped
   * to its owner (see docs/auth.md). Replaces `apiKey` when both are given.
   */
  authenticate?: Authenticate;
  /** Where eval results are read from for `/evals` (default `defaultResultsDir()`). */
  evalsDir?: string;
  /** Where owners are recorded (default: in the ensemble runs' store, `registry.runs.store`). */
  owners?: OwnerRecords;
  /** The schedules `/schedules` serves (default: none; `startServer` starts them in-process). */
  schedules?: Schedules;
  /**
   * The runtime whose in-process state the app keeps (stopped calls waiting for client tool
   * outputs or approvals). Default: {@link defaultRuntime}, one per process.
   */
  runtime?: ColloquyRuntime;
}

/** {@link AppOptions} with defaults applied. */
interface ResolvedAppOptions {
  registry: ServerRegistry;
  apiKey: string | undefined;
  maxBodyBytes: number;
  inflight: InFlight;
  allowedHosts: readonly string[];
  cors: string | readonly string[] | undefined;
  executor: Executor;
}

function resolveAppOptions(options: AppOptions): ResolvedAppOptions {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError(
      `createApp: maxBodyBytes must be a whole number of bytes ≥ 1 (got ${maxBodyBytes}). Pass e.g. 1048576 for 1 MiB.`,
    );
  }
  return {
    registry: options.registry,
    apiKey: options.apiKey,
    maxBodyBytes,
    inflight: options.inflight ?? new InFlight(),
    allowedHosts: options.allowedHosts ?? [],
    cors: options.cors,
    executor: options.executor ?? inProcessExecutor(options.registry),
  };
}

/**
 * Builds the app: `/health`, `/agencies`, `/chats`, `/threads`, `/ensembles`, `/runs` and the
 * OpenAI-compatible `/v1` (see docs/server.md).
 *
 * @example
 * ```ts
 * const app = createApp({ registry: createRegistry({ agencies: [support] }) });
 * const res = await app.request('/agencies/support/responses', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ message: 'hi' }),
 * });
 * console.log((await res.json()).finalOutput);
 * ```
 */
export function createApp(options: AppOptions): Hono {
  const resolved = resolveAppOptions(options);
  const owners = options.authenticate
    ? (options.owners ?? new OwnerRecords(resolved.registry.runs.store))
    : undefined;
  const executor = owners ? scopedExecutor(resolved.executor, owners) : resolved.executor;
  const context: RouteContext = {
    registry: resolved.registry,
    inflight: resolved.inflight,
    executor,
    ...(owners ? { owners } : {}),
    callRuns: new CallRuns(executor.calls, resolved.executor.callRunLog),
    runtime: options.runtime ?? defaultRuntime(),
  };
  resolved.inflight.onCut(() => void context.callRuns.close());
  const app = new Hono();
  app.onError(handleError);
  app.notFound(handleNotFound);
  // Access log, frame headers, in-flight count, Host and cross-origin checks: one layer (guard.ts).
  app.use(
    '*',
    requestGuard({
      inflight: resolved.inflight,
      allowedHosts: resolved.allowedHosts,
      cors: resolved.cors,
    }),
  );
  app.get('/health', (c) =>
    c.json({ status: 'ok', agencies: [...resolved.registry.agencies.keys()] }),
  );
  app.route('/', studioRoutes()); // the page needs no key: it asks for one
  if (options.authenticate) app.use('*', userAuth(options.authenticate));
  else if (resolved.apiKey !== undefined) app.use('*', bearerAuth({ apiKey: resolved.apiKey }));
  // JSON-only bodies and the body limit: one layer. Uploads (multipart) are taken only where a
  // route reads them; cross-origin pages are refused above.
  app.use(
    '*',
    bodyGuard({
      multipartPaths: [/^\/agencies\/[^/]+\/(responses(\/stream)?|runs)$/],
      maxSize: resolved.maxBodyBytes,
      onError: (c) => payloadTooLarge(c, resolved.maxBodyBytes),
    }),
  );
  if (owners) app.use('*', ownership(owners, resolved.registry)); // every route is scoped here

  app.route('/agencies', agencyRoutes(context));
  app.route('/agencies', agencyGraphRoutes(context)); // studio: graph, resume after approvals
  app.route('/agencies', approvalRoutes(context));
  app.route('/agencies', agUiRoutes(context));
  app.route('/agencies', uiMessageRoutes(context));
  app.route('/', chatListRoutes(context));
  app.route('/', ensembleDetailRoutes(context));
  app.route('/', threadRoutes(context));
  app.route('/', replayRoutes(context)); // what if?: re-run a turn in a fork
  app.route('/', callRunRoutes(context)); // before ensemble /runs
  app.route('/', ensembleRoutes(context));
  app.route('/', traceRoutes(context));
  app.route('/', scheduleRoutes(context, options.schedules ?? noSchedules));
  app.route('/memory', memoryRoutes(context));
  app.route('/', networkRoutes(context));
  app.route('/', evalRoutes(options.evalsDir)); // eval results: the operator's, admins only
  app.route('/v1', openaiRoutes(context));
  app.route('/', mcpRoutes(context));
  return app;
}
