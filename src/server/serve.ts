/**
 * `startServer`: the app on Node with `@hono/node-server`, with graceful shutdown (SIGTERM or
 * SIGINT: stop accepting, let running requests finish within a grace period, then close
 * connections, agencies and stores).
 * @module
 */
import { readEnv } from '../env.js';
import { DEFAULT_PORT } from '../defaults.js';
import type { AddressInfo } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { ProjectConfig } from '../models/projectConfig.js';
import { ConfigError } from '../errors.js';
import { createApp } from './app.js';
import { inProcessExecutor, type Executor } from './executor.js';
import { assertSafeListen } from './auth.js';
import type { Authenticate } from './auth/principal.js';
import { InFlight } from './inflight.js';
import { OwnerRecords } from './ownership/owners.js';
import { startSchedules } from './schedules/startSchedules.js';
import type { Schedules } from './schedules/types.js';
import type { ScheduleSpec } from '../schedules/spec.js';
import {
  loadRegistry,
  readConfig,
  type FallbackAgencies,
  type ModuleImporter,
  type ServerRegistry,
} from './registry.js';

/** Options of {@link startServer}. Every field is optional. */
export interface StartServerOptions {
  /** The port (default 8787; 0 picks a free one). */
  port?: number;
  /** The host to listen on (default `127.0.0.1`). A non-loopback host needs an API key. */
  host?: string;
  /** Clients must send it as a bearer token (default `$COLLOQUY_API_KEY`, else none). */
  apiKey?: string;
  /** The project config or the path of a `colloquy.yaml` (default `./colloquy.yaml` if any). Ignored with `registry`. */
  config?: ProjectConfig | string;
  /** Agencies to serve when the config names none (default: none). Ignored with `registry`. */
  fallbackAgencies?: FallbackAgencies;
  /** What to serve (default: {@link loadRegistry} of `config`). A given registry is not closed on shutdown. */
  registry?: ServerRegistry;
  /** Largest request body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** How long shutdown lets running requests and ensemble runs finish, in ms (default 10000). */
  gracePeriodMs?: number;
  /** Shut down gracefully on SIGTERM and SIGINT (default true). */
  handleSignals?: boolean;
  /**
   * Host names the server answers for besides loopback names and `host` (default: none; `'*'`
   * any). A server listening on a wildcard address (`0.0.0.0`, `::`) answers any Host unless set.
   */
  allowedHosts?: readonly string[];
  /** Origins browsers may call the server from (CORS), or `'*'` (default: none, cross-origin is refused). */
  cors?: string | readonly string[];
  /** Where `COLLOQUY_API_KEY` is read (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Imports the config's agencies module (default: Node's `import()`; the CLI compiles `.ts`). */
  importModule?: ModuleImporter;
  /** Where agency calls and ensemble runs run (default: in this process); closed on shutdown. */
  executor?: Executor;
  /** Finds each request's user, scoping chats, runs and traces to it (see `createApp`, docs/auth.md). */
  authenticate?: Authenticate;
  /** Where `/evals` reads eval results (default `defaultResultsDir()`, `.colloquy/evals/`). */
  evalsDir?: string;
  /**
   * The schedules served at `/schedules` and run (default: in this process, on the registry's
   * store; `false`: none). Started here and closed on shutdown.
   */
  schedules?: Schedules | false;
  /** The `schedules:` to add or update (default: those of `config`, when the registry is loaded from it). */
  scheduleConfig?: Record<string, ScheduleSpec>;
  /** Told when shutdown begins and ends (default: nothing). */
  onShutdown?: (phase: 'started' | 'finished', detail: { signal?: NodeJS.Signals }) => void;
}

/** A running server. */
export interface RunningServer {
  /** `http://host:port`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly app: Hono;
  readonly registry: ServerRegistry;
  readonly server: Server;
  /** Shuts down gracefully (idempotent); resolves when connections, agencies and stores are closed. */
  close(): Promise<void>;
}

interface ResolvedServeOptions {
  port: number;
  host: string;
  apiKey: string | undefined;
  maxBodyBytes: number | undefined;
  gracePeriodMs: number;
  handleSignals: boolean;
  allowedHosts: readonly string[];
}

function resolveServeOptions(options: StartServerOptions): ResolvedServeOptions {
  const env = options.env ?? process.env;
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(
      `Port ${port} is not a TCP port. Pass a whole number from 0 to 65535 (0 picks a free one).`,
    );
  }
  const envKey = readEnv('COLLOQUY_API_KEY', env);
  return {
    port,
    host: options.host ?? '127.0.0.1',
    apiKey: options.apiKey ?? envKey,
    maxBodyBytes: options.maxBodyBytes,
    gracePeriodMs: options.gracePeriodMs ?? 10_000,
    handleSignals: options.handleSignals ?? true,
    allowedHosts: listenHosts(options.host ?? '127.0.0.1', options.allowedHosts),
  };
}

/** The Host names a server on `host` answers for: the configured ones and `host` itself. */
function listenHosts(host: string, configured: readonly string[] | undefined): readonly string[] {
  const wildcard = ['0.0.0.0', '::', '[::]', ''].includes(host);
  if (wildcard) return configured ?? ['*'];
  return [...(configured ?? []), host];
}

function listen(app: Hono, port: number, host: string): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }) as Server;
    server.once('error', (error: NodeJS.ErrnoException) => {
      const hint =
        error.code === 'EADDRINUSE'
          ? `Port ${port} is in use on ${host}. Stop the other server or pass another --port.`
          : `Check --host "${host}" and --port ${port}.`;
      reject(
        new ConfigError(`Could not listen on ${host}:${port}: ${error.message}. ${hint}`, {
          cause: error,
        }),
      );
    });
    server.once('listening', () =>
      resolve({ server, port: (server.address() as AddressInfo).port }),
    );
  });
}

/**
 * Starts the HTTP server and resolves once it listens.
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 8787, config: 'colloquy.yaml' });
 * console.log(`listening on ${server.url}`); // POST /agencies/<name>/responses ...
 * await server.close();
 * ```
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const resolved = resolveServeOptions(options);
  if (!options.authenticate) assertSafeListen(resolved.host, resolved.apiKey);
  const config = options.registry
    ? undefined
    : typeof options.config === 'object'
      ? options.config
      : await readConfig(options.config);
  const registry =
    options.registry ??
    (await loadRegistry({
      ...(config !== undefined ? { config } : {}),
      ...(options.fallbackAgencies ? { fallbackAgencies: options.fallbackAgencies } : {}),
      ...(options.importModule ? { importModule: options.importModule } : {}),
    }));
  // Memory stores that check their embedder asynchronously (Postgres, Redis) fail here, before any call.
  try {
    for (const agency of registry.agencies.values()) await agency.memory?.ready();
  } catch (error) {
    if (!options.registry) await registry.close();
    throw error;
  }
  const inflight = new InFlight();
  const executor = options.executor ?? inProcessExecutor(registry);
  const owners = options.authenticate ? new OwnerRecords(registry.runs.store) : undefined;
  let schedules: Schedules | undefined;
  try {
    schedules = await startSchedules({
      schedules: options.schedules,
      registry,
      executor,
      ...(owners ? { owners } : {}),
      config: options.scheduleConfig ?? config?.schedules,
      configPath: config?.configPath,
    });
  } catch (error) {
    if (!options.registry) await registry.close();
    throw error;
  }
  const app = createApp({
    executor,
    ...(owners ? { owners } : {}),
    ...(schedules ? { schedules } : {}),
    registry,
    inflight,
    allowedHosts: resolved.allowedHosts,
    ...(options.cors !== undefined ? { cors: options.cors } : {}),
    ...(resolved.apiKey !== undefined ? { apiKey: resolved.apiKey } : {}),
    ...(resolved.maxBodyBytes !== undefined ? { maxBodyBytes: resolved.maxBodyBytes } : {}),
    ...(options.authenticate ? { authenticate: options.authenticate } : {}),
    ...(options.evalsDir ? { evalsDir: options.evalsDir } : {}),
  });
  let listening: { server: Server; port: number };
  try {
    listening = await listen(app, resolved.port, resolved.host);
  } catch (error) {
    await schedules?.close();
    if (!options.registry) await registry.close();
    throw error;
  }
  const { server, port } = listening;
  // A response counts as running until it is fully written (or its connection closes), so that
  // shutdown never cuts a response whose handler has already returned.
  // Counted without a promise: one listener a response (`on`, not `once`: a response closes once).
  const leave = () => inflight.leave();
  server.on('request', (_request, response: ServerResponse) => {
    inflight.enter();
    response.on('close', leave);
  });

  let closing: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      process.exit(1); // a second signal: stop now
    }
    void shutdown(signal);
  };
  const shutdown = (signal?: NodeJS.Signals): Promise<void> => {
    closing ??= (async () => {
      options.onShutdown?.('started', signal ? { signal } : {});
      // Once the listener closes nothing else may hold the event loop: keep it alive until done.
      const keepAlive = setInterval(() => undefined, 1_000);
      inflight.drain();
      await schedules?.close(); // no new ticks; runs already started finish below
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const runsDone = Promise.all([
        registry.runs.close(resolved.gracePeriodMs),
        options.executor?.close(resolved.gracePeriodMs),
      ]);
      await inflight.idle(resolved.gracePeriodMs);
      inflight.cut(); // background calls still running are cancelled, as their streams are cut
      server.closeAllConnections();
      await Promise.all([stopped, runsDone, inflight.idle(2_000)]);
      try {
        if (!options.registry) await registry.close();
      } finally {
        clearInterval(keepAlive);
      }
      options.onShutdown?.('finished', signal ? { signal } : {});
      // Removed last: the agents SDK exits the process on SIGTERM/SIGINT when no other listener is left.
      if (resolved.handleSignals) {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
      }
    })();
    return closing;
  };
  if (resolved.handleSignals) {
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }
  const urlHost = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  return {
    url: `http://${urlHost}:${port}`,
    host: resolved.host,
    port,
    app,
    registry,
    server,
    close: () => shutdown(),
  };
}
