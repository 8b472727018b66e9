/**
 * The run context a paused run carries. `RunState` keeps it in `_context` (declared in the SDK's
 * types, but named as internal); a resumed run must reuse it, since it holds the approvals given
 * so far. `test/sdk/runStateContext.test.ts` fails if an SDK release renames it.
 * @module
 */
import type { RunContext, RunState } from '@openai/agents-core';

/** The {@link RunContext} of a paused run's state. */
export function runStateContext<TContext>(state: RunState<TContext, any>): RunContext<TContext> {
  return state._context;
}
