/**
 * Bearer JWT authentication (`colloquy serve --auth jwt`), verified with `jose`: HS256 with a
 * shared secret, or RS/PS/ES keys from a JWKS URL. `sub` is the user id; a claim (default
 * `scope`) containing `colloquy:admin` makes an admin.
 * @module
 */
import { InvalidTokenError } from './invalidToken.js';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { ConfigError } from '../../errors.js';
import { readEnv, type EnvName } from '../../env.js';
import type { Authenticate, Principal } from './principal.js';

/** Options of {@link jwtAuthenticator}: exactly one of `secret` and `jwksUrl`. */
export interface JwtAuthOptions {
  /** HS256 shared secret (`COLLOQUY_JWT_SECRET`); at least 32 characters. */
  secret?: string;
  /** Where the issuer publishes its public keys (`COLLOQUY_JWKS_URL`). */
  jwksUrl?: string;
  /** Required `iss` when set (`COLLOQUY_JWT_ISSUER`). */
  issuer?: string;
  /** Required `aud` when set (`COLLOQUY_JWT_AUDIENCE`). */
  audience?: string;
  /** The claim listing scopes (default `scope`: a space-separated string or an array). */
  adminClaim?: string;
  /** The scope that makes an admin (default `colloquy:admin`). */
  adminScope?: string;
  /** Clock skew tolerated on `exp`/`nbf`/`iat`, in seconds (default 60). */
  clockToleranceSec?: number;
}

/** Asymmetric algorithms accepted from a JWKS (never `none`, never HMAC with a public key). */
export const JWKS_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const;

/** The JWT options in `env` (`COLLOQUY_JWT_SECRET`, `COLLOQUY_JWKS_URL`, ...), checked. */
export function jwtOptionsFromEnv(env: NodeJS.ProcessEnv): JwtAuthOptions {
  const pick = (name: EnvName) => String(readEnv(name, env) ?? '').trim() || undefined;
  const options: JwtAuthOptions = {};
  const fields: Array<[keyof JwtAuthOptions, EnvName]> = [
    ['secret', 'COLLOQUY_JWT_SECRET'],
    ['jwksUrl', 'COLLOQUY_JWKS_URL'],
    ['issuer', 'COLLOQUY_JWT_ISSUER'],
    ['audience', 'COLLOQUY_JWT_AUDIENCE'],
    ['adminClaim', 'COLLOQUY_JWT_ADMIN_CLAIM'],
  ];
  for (const [field, name] of fields) {
    const value = pick(name);
    if (value !== undefined) (options as Record<string, string>)[field] = value;
  }
  return options;
}

function scopesOf(payload: JWTPayload, claim: string): string[] {
  const value = payload[claim];
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

export { InvalidTokenError };

/** An {@link Authenticate} verifying `Authorization: Bearer <JWT>`. */
export function jwtAuthenticator(options: JwtAuthOptions): Authenticate {
  if ((options.secret === undefined) === (options.jwksUrl === undefined)) {
    throw new ConfigError(
      '--auth jwt needs exactly one key source: set COLLOQUY_JWT_SECRET (HS256) or COLLOQUY_JWKS_URL (RS/ES keys).',
    );
  }
  if (options.secret !== undefined && options.secret.length < 32) {
    throw new ConfigError(
      'COLLOQUY_JWT_SECRET is shorter than 32 characters: use a random secret of at least 32 characters for HS256.',
    );
  }
  let jwksUrl: URL | undefined;
  if (options.jwksUrl !== undefined) {
    try {
      jwksUrl = new URL(options.jwksUrl);
    } catch {
      throw new ConfigError(
        `COLLOQUY_JWKS_URL "${options.jwksUrl}" is not a URL: give the issuer's JWKS address, e.g. https://issuer.example/.well-known/jwks.json.`,
      );
    }
  }
  const key = jwksUrl ? createRemoteJWKSet(jwksUrl) : new TextEncoder().encode(options.secret!);
  const algorithms = jwksUrl ? [...JWKS_ALGORITHMS] : ['HS256'];
  const claim = options.adminClaim ?? 'scope';
  const adminScope = options.adminScope ?? 'colloquy:admin';
  const verifyOptions = {
    algorithms,
    clockTolerance: options.clockToleranceSec ?? 60,
    ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
    ...(options.audience !== undefined ? { audience: options.audience } : {}),
  };
  return async (request: Request): Promise<Principal | null> => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
    if (!match) return null;
    let payload: JWTPayload;
    try {
      // jwtVerify refuses `alg: none` (unsecured JWTs) and any algorithm outside `algorithms`.
      ({ payload } =
        typeof key === 'function'
          ? await jwtVerify(match[1]!, key, verifyOptions)
          : await jwtVerify(match[1]!, key, verifyOptions));
    } catch (error) {
      const reason = error instanceof errors.JOSEError ? error.code : 'ERR_JWT_INVALID';
      throw new InvalidTokenError(`The bearer token was refused (${reason}).`, { cause: error });
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') {
      throw new InvalidTokenError('The bearer token has no "sub" claim: it names no user.');
    }
    return { userId: payload.sub, admin: scopesOf(payload, claim).includes(adminScope) };
  };
}

/** The authenticator of `serve --auth MODE`: none for `key` (the API-key mode), JWTs for `jwt`. */
export function authenticatorFor(mode: string, env: NodeJS.ProcessEnv): Authenticate | undefined {
  if (mode === 'key') return undefined;
  if (mode === 'jwt') return jwtAuthenticator(jwtOptionsFromEnv(env));
  throw new ConfigError(`--auth "${mode}" is not a mode. Pass --auth key or --auth jwt.`);
}
