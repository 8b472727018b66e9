/**
 * Whether a model request is the runner repeating a failed call (`modelSettings.retry`). The SDK
 * marks such a request with `_internal.runnerManagedRetry` and passes the same `modelSettings`
 * object again; a fallback model uses both to continue with the member that failed instead of
 * starting over. `test/sdk/runnerManagedRetry.test.ts` fails if an SDK release changes either.
 * @module
 */
import type { ModelRequest } from '@openai/agents-core';

/** True when the SDK runner sends `request` again after a failed attempt. */
export function isRunnerManagedRetry(request: ModelRequest): boolean {
  const internal = (request as { _internal?: { runnerManagedRetry?: unknown } })._internal;
  return internal?.runnerManagedRetry === true;
}
