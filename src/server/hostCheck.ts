/**
 * Host-header check against DNS rebinding: a web page on `evil.example` whose name is made to
 * resolve to 127.0.0.1 reaches the loopback server with `Host: evil.example`. Requests whose Host
 * is not a loopback name, the listening host or a configured name are refused with 403.
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { isLoopbackHost } from './auth.js';
import { requestHeader } from './requestHeader.js';
import type { ErrorBody } from './errors.js';

/** Options of {@link hostCheck}. */
export interface HostCheckOptions {
  /**
   * Host names (without port) accepted besides loopback names (`localhost`, `*.localhost`,
   * `127.x.x.x`, `::1`); `'*'` accepts every host. Default: none.
   */
  allowedHosts?: readonly string[];
}

/** The host name of a `Host` header value or URL host, lowercased, without port or brackets. */
export function hostName(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) return trimmed.slice(1, trimmed.indexOf(']'));
  const colon = trimmed.indexOf(':');
  // A bare IPv6 address has several colons; only `name:port` has exactly one.
  return colon >= 0 && trimmed.indexOf(':', colon + 1) < 0 ? trimmed.slice(0, colon) : trimmed;
}

/** Whether a request to `host` is served under `allowed` (see {@link HostCheckOptions}). */
export function isAllowedHost(host: string, allowed: readonly string[]): boolean {
  if (allowed.includes('*')) return true;
  const name = hostName(host);
  if (name === '') return false;
  return isLoopbackHost(name) || allowed.some((entry) => hostName(entry) === name);
}

/** Middleware answering 403 `HOST_NOT_ALLOWED` to requests for a foreign Host. */
export function hostCheck(options: HostCheckOptions = {}): MiddlewareHandler {
  const refusal = hostRefusal(options);
  return async (c, next) => refusal(c) ?? next();
}

/**
 * The check of {@link hostCheck} alone: a function answering the 403 `HOST_NOT_ALLOWED` response
 * to a request for a foreign Host, else undefined. It remembers the last Host it allowed (a
 * server's clients nearly always send the same one), so a repeated Host costs one comparison.
 */
export function hostRefusal(options: HostCheckOptions = {}): (c: Context) => Response | undefined {
  const allowed = options.allowedHosts ?? [];
  let lastAllowed: string | undefined;
  return (c) => {
    const host = requestHeader(c, 'host') ?? new URL(c.req.url).host;
    if (host === lastAllowed) return undefined;
    if (isAllowedHost(host, allowed)) {
      lastAllowed = host;
      return undefined;
    }
    const shown = JSON.stringify(host.slice(0, 100));
    return c.json<ErrorBody>(
      {
        error: {
          code: 'HOST_NOT_ALLOWED',
          message:
            `This server does not answer for Host ${shown} (a web page may be trying DNS rebinding). ` +
            'Use http://127.0.0.1 or localhost, or start the server with --allowed-host NAME (allowedHosts) for names you trust.',
        },
      },
      403,
    );
  };
}
