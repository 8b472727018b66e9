/**
 * Errors that came out of a model provider: redacted where they enter Colloquy (a provider may echo
 * the API key in its error body) and marked, so that the server answers them as `MODEL_ERROR`
 * (HTTP 502) rather than as an internal error.
 * @module
 */
import { redactErrorInPlace } from '../redact.js';

const MARK = Symbol.for('colloquy.modelError');

/**
 * Redacts `error` in place (the given secrets and key-like strings) and marks it as a model
 * provider's failure. Returns the same error.
 */
export function markModelError<E>(error: E, secrets: readonly string[] = []): E {
  if (!error || typeof error !== 'object') return error;
  redactErrorInPlace(error, { secrets });
  Object.defineProperty(error, MARK, { value: true, configurable: true, enumerable: false });
  return error;
}

/** Whether `error`, or an error in its `cause`/`error` chain, came from a model provider. */
export function isModelError(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object' && !seen.has(current);) {
    if ((current as Record<symbol, unknown>)[MARK] === true) return true;
    seen.add(current);
    const next = current as { cause?: unknown; error?: unknown };
    current = next.cause ?? next.error;
  }
  return false;
}
