/**
 * Tool calls through the step journal, and the idempotency key of a tool call. A function tool's
 * output is journaled when it returns, under (run path, tool call id); a retried call whose
 * replayed model answer makes the same tool call gets the journaled output and the tool does not
 * run. (send_message is journaled by `send` itself: see `journaledSend.ts`.)
 * @module
 */
import { createHash } from 'node:crypto';
import type { FunctionTool, RunContext, Tool } from '@openai/agents-core';
import { ColloquyError } from '../../errors.js';
import { frameOf } from '../call.js';
import { journalPath } from './journaledModel.js';
import { currentScope, withScope } from './callScope.js';

const JOURNALED = Symbol('colloquy.journaledTool');

/**
 * Wraps a function tool so that, in an agency call with a step journal, its finished outputs are
 * journaled and replayed. Other tools (hosted, computer, shell) are returned as they are.
 */
export function journaledTool<T extends Tool<any>>(tool: T): T {
  if (tool.type !== 'function' || (tool as { [JOURNALED]?: boolean })[JOURNALED]) return tool;
  const inner = tool as unknown as FunctionTool<any, any, any>;
  const invoke: FunctionTool<any, any, any>['invoke'] = async (runContext, input, details) => {
    const frame = frameOf(runContext as RunContext<unknown>);
    const toolCallId = details?.toolCall?.callId;
    if (!frame || toolCallId === undefined) return inner.invoke(runContext, input, details);
    const own = () =>
      // The tool call (parallel tool calls of one run share its RunContext), outside any step
      // journal: agency calls the tool's own code starts do not join this call's journal.
      withScope({ tool: { frame, toolCallId }, journal: undefined }, () =>
        inner.invoke(runContext, input, details),
      );
    const journal = frame.call.journal;
    if (!journal) return own();
    const path = journalPath(frame);
    const base = `${path}#tool:${toolCallId}`;
    const key = `${base}#${journal.next(base)}`;
    const found = await journal.lookup(key, (entry) => entry.kind === 'tool');
    if (found?.kind === 'tool') return found.output as string;
    const output = await own();
    await journal.record({ kind: 'tool', key, path, tool: inner.name, toolCallId, output });
    return output;
  };
  return { ...inner, invoke, [JOURNALED]: true } as unknown as T;
}

/**
 * A stable key for the tool call being run: the same on every retry of the agency call (when the
 * call has a step journal, as every queued call does: it is derived from the call id, the run's
 * place in the call and the tool call id of the journaled model answer). Use it to make a tool's
 * own side effects idempotent (a payment API's idempotency key, a row's unique id), for the case
 * where the worker dies after the side effect and before the tool's output was journaled.
 * Without a step journal the key is unique to this attempt of the call.
 *
 * Throws `AGENCY_INVALID` when called outside a tool call of an agency run.
 *
 * @example
 * ```ts
 * const charge = tool({
 *   name: 'charge',
 *   parameters: z.object({ cents: z.number() }),
 *   execute: async ({ cents }, runContext) =>
 *     payments.charge({ cents, idempotencyKey: idempotencyKey(runContext) }),
 * });
 * ```
 */
export function idempotencyKey(runContext: RunContext<any> | undefined): string {
  const running = currentScope().tool;
  const frame = frameOf(runContext as RunContext<unknown> | undefined) ?? running?.frame;
  if (!running || !frame || running.frame.call !== frame.call) {
    throw new ColloquyError(
      'AGENCY_INVALID',
      'idempotencyKey(runContext) was called outside a tool call of an agency run. Call it from ' +
        "a function tool's execute, with the runContext the tool was given.",
    );
  }
  const scope = frame.call.journal?.callId ?? `attempt:${frame.runId}`;
  const digest = createHash('sha256')
    .update(`${scope}\u0000${journalPath(running.frame)}\u0000${running.toolCallId}`)
    .digest('hex')
    .slice(0, 32);
  return `idem_${digest}`;
}
