/**
 * The SDK wraps errors thrown by tools (in `ToolCallError.error`, or `cause`). Colloquy needs the
 * original to decide whether a failure ends the whole call (aborts, store failures) and to give
 * callers the error with its own code.
 * @module
 */
import { ColloquyError, StoreError } from '../errors.js';

/** Walks `error`, its `.error` and its `.cause` chain; returns the first match. */
export function findCause<T>(error: unknown, match: (value: unknown) => value is T): T | undefined {
  const seen = new Set<unknown>();
  for (let current: unknown = error; current && !seen.has(current);) {
    if (match(current)) return current;
    seen.add(current);
    const next = current as { error?: unknown; cause?: unknown };
    current = next.error ?? next.cause;
  }
  return undefined;
}

/** A StoreError anywhere in the chain: a persistence failure must never become tool output. */
export function storeErrorIn(error: unknown): StoreError | undefined {
  return findCause(error, (value): value is StoreError => value instanceof StoreError);
}

/**
 * The OpenAI client's "Missing credentials" error (an agent with a model name such as
 * `gpt-4.1-mini` and no key) as our `MISSING_API_KEY`, naming the variable and the fix.
 */
export function missingKeyIn(error: unknown): ColloquyError | undefined {
  const found = findCause(
    error,
    (value): value is Error =>
      value instanceof Error && /Missing credentials.*OPENAI_API_KEY/s.test(value.message),
  );
  if (!found) return undefined;
  return new ColloquyError(
    'MISSING_API_KEY',
    'An agent runs on an OpenAI model by name, but OPENAI_API_KEY is not set. ' +
      'Export OPENAI_API_KEY=sk-... (or call setDefaultOpenAIKey), or give the agent a model profile ' +
      '(createModel) or a ScriptedModel to run offline.',
    { cause: error },
  );
}

/** The error callers should see: the StoreError inside the SDK's wrappers if there is one. */
export function surfacedError(error: unknown): unknown {
  return storeErrorIn(error) ?? missingKeyIn(error) ?? error;
}
