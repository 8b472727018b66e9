/**
 * The middleware that runs an {@link Authenticate} on every request but the open paths, answers
 * 401 without a user, and runs the rest of the request as that user (see `currentPrincipal`).
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { OPEN_PATHS } from '../auth.js';
import type { ErrorBody } from '../errors.js';
import { InvalidTokenError } from './invalidToken.js';
import { withPrincipal, type Authenticate } from './principal.js';

/** Middleware answering 401 unless `authenticate` finds the request's user. */
export function userAuth(
  authenticate: Authenticate,
  openPaths: readonly string[] = OPEN_PATHS,
): MiddlewareHandler {
  const open = new Set(openPaths);
  return async (c, next) => {
    if (open.has(c.req.path)) return next();
    let message = 'This server needs a user token. Send it as "Authorization: Bearer <token>".';
    try {
      const principal = await authenticate(c.req.raw);
      if (principal) return await withPrincipal(principal, next);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      message = `${error.message} Send a token signed by the configured issuer, unexpired, with a "sub" claim.`;
    }
    c.header('WWW-Authenticate', 'Bearer realm="colloquy"');
    return c.json<ErrorBody>({ error: { code: 'UNAUTHORIZED', message } }, 401);
  };
}
