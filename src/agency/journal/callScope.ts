/**
 * The async context of an agency call, in one slot of Colloquy's async context
 * (`asyncContext.ts`): the step journal a call started now belongs to, the run whose model calls
 * are journaled, and the tool call being run (for `idempotencyKey`). It must be async context: the SDK calls the model and the tools, so nothing
 * of ours is on the stack to pass them along. Each setter keeps the other fields of the scope it
 * runs in.
 * @module
 */
import { contextSlot, readSlot, runInSlot } from '../../asyncContext.js';
import type { RunFrame } from '../call.js';
import type { StepJournal } from './stepJournal.js';

/** What the code running now belongs to. */
export interface CallScope {
  /** The step journal an agency call started now joins (`withStepJournal`). */
  readonly journal?: StepJournal | undefined;
  /** The run whose model calls are made now (set around each `Runner.run` of a journaled call). */
  readonly frame?: RunFrame | undefined;
  /** The function tool call being run. */
  readonly tool?: { readonly frame: RunFrame; readonly toolCallId: string } | undefined;
}

const scope = contextSlot<CallScope>('agency call scope');

/** The scope of the code running now (empty outside any call). */
export function currentScope(): CallScope {
  return readSlot(scope) ?? {};
}

/** Runs `work` in the current scope with `change` applied. */
export function withScope<T>(change: CallScope, work: () => Promise<T>): Promise<T> {
  return runInSlot(scope, { ...readSlot(scope), ...change }, work);
}
