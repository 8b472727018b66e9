/**
 * Secret redaction shared by logs and cassettes: key-like values and secret-named fields are
 * replaced by `[REDACTED]` so that API keys never reach a log line or a file.
 * @module
 */

/** What redacted values are replaced with. */
export const REDACTED = '[REDACTED]';

/** Field names whose values are always secret (compared case-insensitively, `-`/`_` ignored). */
const SECRET_FIELDS = new Set([
  'authorization',
  'proxyauthorization',
  'xapikey',
  'apikey',
  'openaiapikey',
  'anthropicapikey',
  'secret',
  'clientsecret',
  'password',
  'token',
  'accesstoken',
  'refreshtoken',
  'bearer',
  'cookie',
  'setcookie',
]);

/** Patterns of strings that look like credentials. */
const SECRET_PATTERNS: RegExp[] = [
  /\bsk-(?:ant-|proj-|svcacct-)?[A-Za-z0-9_-]{16,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(?:ghp|gho|ghs|github_pat|xox[abpr]|AIza|glpat)[-_A-Za-z0-9]{16,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
];

/** Options of {@link redactSecrets} and {@link redactString}. */
export interface RedactOptions {
  /** Exact secret values to remove wherever they appear (for example, the loaded API keys). */
  secrets?: readonly string[];
}

/**
 * A connection URL fit for a message: its password replaced by `***` (user, host and database
 * stay, so the message still says where). Text that is not a URL is returned as is.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL: nothing in it to redact.
    return url;
  }
}

/** Whether a field name is secret by itself (`Authorization`, `api_key`, `x-api-key`, ...). */
export function isSecretField(name: string): boolean {
  return SECRET_FIELDS.has(name.toLowerCase().replace(/[-_]/g, ''));
}

/** Replaces key-like substrings and the given exact secrets in a string. */
export function redactString(text: string, options: RedactOptions = {}): string {
  let out = text;
  for (const secret of options.secrets ?? []) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/**
 * Returns a deep copy of `value` with secret-named fields and key-like strings redacted.
 *
 * @example
 * ```ts
 * redactSecrets({ headers: { Authorization: 'Bearer sk-...' }, note: 'key sk-abc...' });
 * // { headers: { Authorization: '[REDACTED]' }, note: 'key [REDACTED]' }
 * ```
 */
export function redactSecrets<T>(value: T, options: RedactOptions = {}): T {
  const seen = new WeakMap<object, unknown>();
  const walk = (input: unknown): unknown => {
    if (typeof input === 'string') return redactString(input, options);
    if (input === null || typeof input !== 'object') return input;
    if (seen.has(input)) return seen.get(input);
    if (Array.isArray(input)) {
      const out: unknown[] = [];
      seen.set(input, out);
      for (const item of input) out.push(walk(item));
      return out;
    }
    if (input instanceof Error) return redactString(`${input.name}: ${input.message}`, options);
    const out: Record<string, unknown> = {};
    seen.set(input, out);
    for (const [key, item] of Object.entries(input)) {
      out[key] =
        isSecretField(key) && item !== undefined && item !== null && item !== ''
          ? REDACTED
          : walk(item);
    }
    return out;
  };
  return walk(value) as T;
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    // Not serialisable (a cycle, a BigInt): treated as changed.
    return false;
  }
}

function isPlainData(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  if (!value || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Error fields never rewritten by {@link redactErrorInPlace} (structure, not text). */
const KEEP_FIELDS = new Set(['name', 'code', 'status', 'statusCode', 'type']);

/**
 * Redacts an error in place, so that every later reader (HTTP bodies, SSE events, the CLI's error
 * line, run records) sees the redacted text: its `message` and `stack`, its string fields and the
 * objects it carries (a provider's parsed error body, response text, request values), down its
 * `cause` and `error` chain. Use it where errors from outside (model providers) enter Colloquy.
 *
 * @example
 * ```ts
 * try { await provider.call(); } catch (error) { throw redactErrorInPlace(error, { secrets: [apiKey] }); }
 * ```
 */
export function redactErrorInPlace<E>(error: E, options: RedactOptions = {}): E {
  const seen = new Set<unknown>();
  for (
    let current: unknown = error;
    current && typeof current === 'object' && !seen.has(current);
  ) {
    seen.add(current);
    const target = current as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(target)) {
      if (KEEP_FIELDS.has(key) || key === 'cause') continue;
      const value = target[key];
      // Only text and plain JSON-like data are rewritten: class instances (Headers, Response)
      // stay, since retry logic reads them (Retry-After).
      const next =
        typeof value === 'string'
          ? redactString(value, options)
          : isPlainData(value)
            ? redactSecrets(value, options)
            : value;
      if (next === value || sameJson(next, value)) continue;
      try {
        target[key] = next;
      } catch {
        // A read-only field: leave it (its text is not part of the message).
      }
    }
    const link = target.cause ?? (target.error instanceof Error ? target.error : undefined);
    current = link;
  }
  return error;
}

/** Environment variable names whose values are secrets (`OPENAI_API_KEY`, `X_TOKEN`, ...). */
const SECRET_ENV = /(?:API_?KEY|TOKEN|SECRET|PASSWORD)$/i;

/**
 * The values of secret-named environment variables (8 characters or longer), to pass as
 * {@link RedactOptions.secrets} where text leaves the process (error bodies, the CLI's error line).
 */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_ENV.test(name) && value !== undefined && value.length >= 8)
    .map(([, value]) => value!);
}
