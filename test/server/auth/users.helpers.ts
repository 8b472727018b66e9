/**
 * Helpers of the multi-user tests: HS256 tokens for named users, and an app serving the echo
 * agency and a one-step ensemble behind `jwtAuthenticator`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import type { Hono } from 'hono';
import { createApp } from '../../../src/server/app.js';
import { jwtAuthenticator, type JwtAuthOptions } from '../../../src/server/auth/jwt.js';
import { MemoryStore } from '../../../src/stores/memory.js';
import { echoAgency, tempDir, testRegistry, writeScript } from '../helpers.js';

/** The HS256 secret of the tests. */
export const SECRET = 'test-secret-of-at-least-32-characters!!';

/** A signed token for `sub` (undefined: no `sub`), valid for an hour unless `claims` say otherwise. */
export async function tokenFor(
  sub: string | undefined,
  claims: Record<string, unknown> = {},
  secret = SECRET,
): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  if (sub !== undefined) jwt.setSubject(sub);
  if (claims.exp === undefined) jwt.setExpirationTime('1h');
  return jwt.sign(new TextEncoder().encode(secret));
}

/** An ensembles dir with `one`: a single script step that answers at once. */
export function oneStepEnsembles(): string {
  const dir = tempDir();
  const script = writeScript(dir, 'one.js', `reply({ success: true, data: { done: 1 } });`);
  writeFileSync(
    path.join(dir, 'one.yaml'),
    `name: one\nagents:\n  - name: only\n    script: ${script}\n`,
  );
  return dir;
}

/** An app with users: the echo agency and the `one` ensemble on one memory store. */
export function usersApp(options: Partial<JwtAuthOptions> = {}): Hono {
  const store = new MemoryStore();
  const registry = testRegistry({
    agencies: [echoAgency('echo', store)],
    store,
    demo: false,
    ensembles: oneStepEnsembles(),
  });
  return createApp({ registry, authenticate: jwtAuthenticator({ secret: SECRET, ...options }) });
}

/** A response whose JSON body is untyped (tests check it with expect). */
export type AnyResponse = Omit<Response, 'json'> & { json(): Promise<any> };

/** A client of `app` signed in with `token`. */
export function client(app: Hono, token: string) {
  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    ...extra,
  });
  return {
    get: async (url: string, extra?: Record<string, string>): Promise<AnyResponse> =>
      app.request(url, { headers: headers(extra) }),
    send: async (
      method: string,
      url: string,
      body?: unknown,
      extra?: Record<string, string>,
    ): Promise<AnyResponse> =>
      app.request(url, {
        method,
        headers: headers({ 'content-type': 'application/json', ...extra }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
  };
}
