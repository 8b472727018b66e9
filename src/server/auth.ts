/**
 * Bearer-token auth: every route but `/health` needs `Authorization: Bearer <key>` when the server
 * has an API key, and a server on a non-loopback host must have one. Tokens are compared in
 * constant time (`crypto.timingSafeEqual` on equal-length SHA-256 digests).
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { bearerAuth as honoBearerAuth } from 'hono/bearer-auth';
import { ConfigError } from '../errors.js';
import type { ErrorBody } from './errors.js';

/** Paths answered without a token. */
export const OPEN_PATHS: readonly string[] = ['/health'];

/** Whether a host name or address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare.startsWith('::ffff:127.');
  return false;
}

/**
 * Throws when a server would listen on a non-loopback host without an API key: anyone on the
 * network could run agents on your model accounts.
 */
export function assertSafeListen(host: string, apiKey: string | undefined): void {
  if (apiKey !== undefined && apiKey.trim() === '') {
    throw new ConfigError(
      'The API key is empty. Pass a non-empty --api-key (or COLLOQUY_API_KEY), or leave it unset on a loopback host.',
    );
  }
  if (!isLoopbackHost(host) && apiKey === undefined) {
    throw new ConfigError(
      `Refusing to listen on host "${host}" without an API key: every client on the network could run your agencies. ` +
        'Pass --api-key KEY (or set COLLOQUY_API_KEY), or listen on 127.0.0.1.',
    );
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Whether `given` equals `expected`, in time independent of where they differ. */
export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Options of {@link bearerAuth}. */
export interface BearerAuthOptions {
  /** The API key clients must send as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Paths that need no token (default {@link OPEN_PATHS}). */
  openPaths?: readonly string[];
}

/** The JSON error body of a refused request. */
const unauthorized = (message: string): ErrorBody => ({ error: { code: 'UNAUTHORIZED', message } });

/**
 * Middleware answering 401 (JSON error body) unless the request carries the API key: Hono's
 * `bearerAuth`, with the token compared by {@link tokensEqual} and error bodies that say the fix.
 */
export function bearerAuth(options: BearerAuthOptions): MiddlewareHandler {
  const openPaths = new Set(options.openPaths ?? OPEN_PATHS);
  const check = honoBearerAuth({
    verifyToken: (token) => tokensEqual(token.trim(), options.apiKey),
    realm: 'colloquy',
    noAuthenticationHeader: {
      message: unauthorized(
        'This server needs an API key. Send it as "Authorization: Bearer <key>".',
      ),
    },
    invalidAuthenticationHeader: {
      message: unauthorized(
        'The Authorization header is not "Bearer <key>". Send the API key as "Authorization: Bearer <key>".',
      ),
    },
    invalidToken: {
      message: unauthorized(
        "The bearer token is not the server's API key. Send the key the server was started with (--api-key or COLLOQUY_API_KEY).",
      ),
    },
  });
  return async (c, next) => (openPaths.has(c.req.path) ? next() : check(c, next));
}
