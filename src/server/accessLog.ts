/**
 * Server access logs: one pino line per request with method, path, status and duration (`info`;
 * `warn` for 4xx, `error` for 5xx with the error code of the body when there is one).
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { getDefaultLogger } from '../logger.js';

/** The access-log middleware (the logger is looked up per request unless given). */
export function accessLog(logger: () => Logger = getDefaultLogger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const logged = logAccess(c, started, logger());
    if (logged) await logged;
  };
}

/**
 * Writes the access-log line of a finished request begun at `started` (`performance.now()`).
 * Returns a promise only when it must read an error body (a 4xx/5xx JSON response at an enabled
 * level); below the log level it builds nothing and returns undefined.
 */
export function logAccess(c: Context, started: number, log: Logger): Promise<void> | undefined {
  const status = c.res.status;
  const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
  if (!log.isLevelEnabled(level)) return undefined; // below the log level: build nothing
  const fields: Record<string, unknown> = {
    method: c.req.method,
    path: c.req.path,
    status,
    durationMs: Math.round(performance.now() - started),
  };
  const write = () => log[level](fields, `${c.req.method} ${c.req.path} ${status}`);
  if (status < 400 || !c.res.headers.get('content-type')?.includes('application/json')) {
    write();
    return undefined;
  }
  return (async () => {
    try {
      const body = (await c.res.clone().json()) as { error?: { code?: unknown } };
      if (typeof body.error?.code === 'string') fields.code = body.error.code;
    } catch {
      // Not a JSON error body: the status says enough.
    }
    write();
  })();
}
