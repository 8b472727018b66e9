import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import {
  authenticatorFor,
  jwtAuthenticator,
  jwtOptionsFromEnv,
} from '../../../src/server/auth/jwt.js';
import { SECRET, tokenFor, usersApp } from './users.helpers.js';

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

function bearer(token: string): Request {
  return new Request('http://127.0.0.1/agencies', {
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('jwtAuthenticator', () => {
  const auth = jwtAuthenticator({ secret: SECRET });

  it('takes sub as the user and the colloquy:admin scope as admin', async () => {
    expect(await auth(bearer(await tokenFor('alice')))).toEqual({ userId: 'alice', admin: false });
    expect(await auth(bearer(await tokenFor('root', { scope: 'read colloquy:admin' })))).toEqual({
      userId: 'root',
      admin: true,
    });
    const custom = jwtAuthenticator({ secret: SECRET, adminClaim: 'roles' });
    expect(await custom(bearer(await tokenFor('r', { roles: ['colloquy:admin'] })))).toEqual({
      userId: 'r',
      admin: true,
    });
    expect(await auth(new Request('http://127.0.0.1/'))).toBeNull();
  });

  it('refuses tokens without sub, unsigned, badly signed, expired beyond 60 s or for another issuer', async () => {
    await expect(auth(bearer(await tokenFor(undefined)))).rejects.toThrow(/no "sub"/);
    const none = new UnsecuredJWT({ sub: 'mallory' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    await expect(auth(bearer(none))).rejects.toThrow(/refused/);
    const forged = await tokenFor('mallory', {}, 'another-secret-of-at-least-32-characters');
    await expect(auth(bearer(forged))).rejects.toThrow(/ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
    const now = Math.floor(Date.now() / 1000);
    await expect(auth(bearer(await tokenFor('late', { exp: now - 120 })))).rejects.toThrow(
      /ERR_JWT_EXPIRED/,
    );
    expect(await auth(bearer(await tokenFor('skewed', { exp: now - 30 })))).toEqual({
      userId: 'skewed',
      admin: false,
    });
    const strict = jwtAuthenticator({
      secret: SECRET,
      issuer: 'https://id.example',
      audience: 'colloquy',
    });
    await expect(strict(bearer(await tokenFor('alice')))).rejects.toThrow(
      /ERR_JWT_CLAIM_VALIDATION_FAILED/,
    );
    const good = await tokenFor('alice', { iss: 'https://id.example', aud: 'colloquy' });
    expect((await strict(bearer(good)))?.userId).toBe('alice');
  });

  it('verifies ES256 tokens against a JWKS URL, and refuses HS256 ones there', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    const remote = jwtAuthenticator({ jwksUrl: url });
    const token = await new SignJWT({ sub: 'carol' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setExpirationTime('1h')
      .sign(privateKey);
    expect(await remote(bearer(token))).toEqual({ userId: 'carol', admin: false });
    await expect(remote(bearer(await tokenFor('carol')))).rejects.toThrow(/refused/);
  });

  it('needs exactly one key source, a long secret and a URL', () => {
    expect(() => jwtAuthenticator({})).toThrow(/exactly one key source/);
    expect(() => jwtAuthenticator({ secret: 'short' })).toThrow(/32 characters/);
    expect(() => jwtAuthenticator({ jwksUrl: 'not a url' })).toThrow(/not a URL/);
    expect(
      jwtOptionsFromEnv({
        COLLOQUY_JWT_SECRET: ' s ',
        COLLOQUY_JWT_ISSUER: 'i',
        COLLOQUY_JWT_AUDIENCE: '',
      }),
    ).toEqual({ secret: 's', issuer: 'i' });
  });

  it('picks the authenticator of serve --auth', async () => {
    expect(authenticatorFor('key', {})).toBeUndefined();
    expect(() => authenticatorFor('jwt', {})).toThrow(/COLLOQUY_JWT_SECRET/);
    expect(() => authenticatorFor('oauth', {})).toThrow(/--auth key or --auth jwt/);
    const auth = authenticatorFor('jwt', { COLLOQUY_JWT_SECRET: SECRET })!;
    expect((await auth(bearer(await tokenFor('dana'))))?.userId).toBe('dana');
  });

  it('answers 401 on the app without a user, and serves /health', async () => {
    const app = usersApp();
    expect((await app.request('/health')).status).toBe(200);
    const missing = await app.request('/chats?agency=echo');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    const noSub = await app.request('/chats?agency=echo', {
      headers: { authorization: `Bearer ${await tokenFor(undefined)}` },
    });
    expect(noSub.status).toBe(401);
    expect(((await noSub.json()) as { error: { message: string } }).error.message).toMatch(/sub/);
  });
});
