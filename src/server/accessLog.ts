/**
 * Server access logs: one pino line per request with method, path, status and duration (`info`;
 * `warn` for 4xx, `error` for 5xx with the error code of the body when there is one).
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import { getDefaultLogger } from '../logger.js';

/** The access-log middleware (the logger is looked up per request unless given). */
export function accessLog(logger: () => Logger = getDefaultLogger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const log = logger();
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!log.isLevelEnabled(level)) return; // below the log level: build nothing
    const fields: Record<string, unknown> = {
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Math.round(performance.now() - started),
    };
    if (status >= 400 && c.res.headers.get('content-type')?.includes('application/json')) {
      try {
        const body = (await c.res.clone().json()) as { error?: { code?: unknown } };
        if (typeof body.error?.code === 'string') fields.code = body.error.code;
      } catch {
        // Not a JSON error body: the status says enough.
      }
    }
    log[level](fields, `${c.req.method} ${c.req.path} ${status}`);
  };
}
