/**
 * What the frontend routes (AG-UI, AI SDK UI messages, `/v1` client tools) share about calls that
 * stop: refusing client tools that clash with the agency's own, and continuing a stopped call as
 * a stream of agency events.
 * @module
 */
import type { Agency } from '../../agency/agency.js';
import type { ApprovalDecisions } from '../../agency/approvals.js';
import type { ClientToolDefinition } from '../../agency/clientTools.js';
import type { AgencyStreamEvent } from '../../agency/events.js';
import type { RouteContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { PendingChatCall } from '../pendingCalls.js';

/** Refuses client tools whose name an agent of the agency already uses (400 naming the field). */
export function checkClientTools(
  agency: Agency,
  tools: readonly ClientToolDefinition[],
  field: string,
): void {
  if (tools.length === 0) return; // most calls bring none: no set of the agency's tools made
  const taken = new Set(
    [...agency.agents.values()].flatMap((agent) => [
      ...agent.tools.map((tool) => tool.name),
      'send_message',
    ]),
  );
  const seen = new Set<string>();
  tools.forEach((tool, i) => {
    if (taken.has(tool.name) || seen.has(tool.name)) {
      throw new HttpError(
        400,
        'INVALID_BODY',
        `Client tool "${tool.name}" clashes with ${seen.has(tool.name) ? 'another client tool' : `a tool of agency "${agency.name}"`}. Rename it.`,
        `${field}.${i}.name`,
      );
    }
    seen.add(tool.name);
  });
}

/** Options of {@link resumedStream}. */
export interface ResumeAnswers extends ApprovalDecisions {
  toolOutputs: Record<string, string>;
  clientTools: ClientToolDefinition[];
  signal: AbortSignal;
}

/**
 * The events of a stopped call continued with `answers`: streamed when the executor can, else
 * (an executor without `resumeStream`) the finished response as one `run_completed`.
 */
export async function* resumedStream(
  context: RouteContext,
  agency: string,
  pending: PendingChatCall,
  answers: ResumeAnswers,
): AsyncGenerator<AgencyStreamEvent> {
  const { calls } = context.executor;
  const options = {
    signal: answers.signal,
    ...(answers.approve !== undefined ? { approve: answers.approve } : {}),
    ...(answers.reject !== undefined ? { reject: answers.reject } : {}),
    toolOutputs: answers.toolOutputs,
    ...(answers.clientTools.length > 0 ? { clientTools: answers.clientTools } : {}),
    ...(pending.outputType ? { outputType: pending.outputType } : {}),
  };
  if (calls.resumeStream) {
    yield* calls.resumeStream(agency, pending.state, options);
    return;
  }
  yield { type: 'run_completed', result: await calls.resume(agency, pending.state, options) };
}
