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
