/**
 * One agency call at the top: prepare the message, pick the entry point (routing when asked), run
 * its turn (which runs every nested turn), save every thread the call wrote, and shape the result
 * (with the pending approvals when the call stopped for them).
 * @module
 */
import type { RunState } from '@openai/agents-core';
import { AgencyConfigError } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import type { AgencyMemory } from '../memory/agencyMemory.js';
import type { LeaseHandle } from '../stores/lease.js';
import { checkpointChat } from '../threads/chatHistory.js';
import { pendingApprovals, type ApprovalDecisions, type PendingCall } from './approvals.js';
import { AgencyCall, type RunFrame } from './call.js';
import { clientTools } from './clientTools.js';
import { surfacedError } from './errorCauses.js';
import type { AgencyStreamEvent } from './events.js';
import type { AgencyGraph } from './graph.js';
import { prepareInput, textInput, type AgencyInput } from './input.js';
import type { GetResponseOptions } from './options.js';
import type { AgencyResponse } from './result.js';
import { describeEntryPoints, route, type EntryRouter } from './router.js';
import type { AgencyRuntime } from './runtime.js';
import { runTurn } from './runTurn.js';

/** What a top-level call needs of its agency besides the runtime. */
export interface EntryCallHost {
  runtime: AgencyRuntime;
  name: string;
  graph: AgencyGraph;
  router: EntryRouter | undefined;
  /** The agency's shared context, for calls that pass none. */
  context: Record<string, unknown>;
  maxAttachmentBytes: number | undefined;
  autoCheckpoint: boolean;
  /** The agency's memory (recall, working memory, compaction), if configured. */
  memory?: AgencyMemory | undefined;
}

/** A stopped run to continue (from `Agency.resume`), or the new call's run id. */
export type ResumeOrRunId = { runId: string; state: RunState<any, any> } | string;

/**
 * Runs one top-level call; the caller holds the chat (gate, `lease` where the store has leases)
 * and the trace. When saving the threads is the call's last store write (no memory, no automatic
 * checkpoint), that save releases the lease too, in its transaction where the store can.
 */
export async function runEntryCall(
  host: EntryCallHost,
  message: AgencyInput,
  options: GetResponseOptions & ApprovalDecisions & { toolOutputs?: Record<string, string> },
  chatId: string,
  emit: ((event: AgencyStreamEvent) => void) | undefined,
  resumeOrRunId: ResumeOrRunId,
  lease?: LeaseHandle,
): Promise<AgencyResponse> {
  const { runtime, graph } = host;
  const resume = typeof resumeOrRunId === 'string' ? undefined : resumeOrRunId;
  const runId = typeof resumeOrRunId === 'string' ? resumeOrRunId : resumeOrRunId.runId;
  const input =
    typeof message === 'string' && !options.attachments?.length
      ? textInput(message)
      : await prepareInput(message, options.attachments, host.maxAttachmentBytes);
  const context = options.context ?? host.context;
  const call = new AgencyCall({
    chatId,
    context,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(options.userId !== undefined ? { userId: options.userId } : {}),
    ...(host.memory ? { memory: host.memory } : {}),
    ...(resume ? { decisions: decisionsOf(options) } : {}),
    ...(resume && options.toolOutputs ? { toolOutputs: options.toolOutputs } : {}),
    ...(emit ? { emit } : {}),
  });
  const routed =
    options.recipient === undefined && host.router && !resume
      ? await route(
          host.router,
          {
            message: input.text,
            chatId,
            entryPoints: describeEntryPoints(graph.agents, graph.entryPoints),
            context,
          },
          runtime.runner,
          options.signal,
        )
      : undefined;
  if (routed) {
    call.addUsage(routed.usage);
    call.emit({ type: 'entry_routed', agent: routed.agent, by: routed.by });
  }
  const recipient = options.recipient ?? routed?.agent ?? graph.entryPoints[0]!;
  if (!graph.entryPoints.includes(recipient)) {
    throw new AgencyConfigError(
      `"${recipient}" is not an entry point of agency "${host.name}". Entry points: ${graph.entryPoints.join(', ')}.`,
    );
  }
  const frame: RunFrame = {
    agent: recipient,
    callerAgent: null,
    runId,
    parentRunId: null,
    depth: 0,
    call,
    viaCallId: null,
    additionalInstructions: options.additionalInstructions,
    outputType: options.outputType,
    clientTools: clientTools(options.clientTools),
    inFlight: new Set(),
  };
  let outcome;
  try {
    outcome = await runTurn(runtime, frame, input, resume ? { state: resume.state } : undefined);
  } catch (error) {
    await saveAfterFailure(host, call);
    throw surfacedError(error);
  }
  // Every thread the call wrote, in one store transaction where the store allows.
  const last = lease && !host.memory && !host.autoCheckpoint;
  await runtime.threads.saveThreads(call.unsavedThreads(), last ? { lastWriteOf: lease } : {});
  // Saved items first, then their vectors (with the thread's indexed mark, in one transaction).
  await host.memory?.afterCall(call.chatId, call.userId);
  const response: AgencyResponse = {
    finalOutput: outcome.finalOutput,
    chatId: call.chatId,
    lastAgent: outcome.lastAgent,
    newItems: call.items(frame.runId),
    usage: { ...call.usage },
    ...(routed ? { routedTo: routed.agent } : {}),
  };
  if (outcome.interruptions.length > 0) {
    const pending: PendingCall = {
      format: 'colloquy-pending-call',
      version: 1,
      chatId: call.chatId,
      agent: recipient,
      runId: frame.runId,
      state: outcome.result.state.toString(),
    };
    return {
      ...response,
      interruptions: pendingApprovals(outcome.interruptions),
      state: JSON.stringify(pending),
    };
  }
  if (host.autoCheckpoint) await checkpointChat(runtime.threads.store, call.chatId, 'auto');
  return response;
}

/** The decisions of a resumed call: client tool calls with an output given are approved. */
function decisionsOf(
  options: ApprovalDecisions & { toolOutputs?: Record<string, string> },
): ApprovalDecisions {
  const answered = Object.keys(options.toolOutputs ?? {});
  const approve = options.approve === true ? true : [...(options.approve ?? []), ...answered];
  return {
    ...(approve === true || approve.length > 0 ? { approve } : {}),
    ...(options.reject ? { reject: options.reject } : {}),
  };
}

/**
 * Saves what a failed call wrote (its incoming messages, finished nested runs). The call's own
 * error is the one to throw; a save that fails too is logged with the chat id, not lost.
 */
async function saveAfterFailure(host: EntryCallHost, call: AgencyCall): Promise<void> {
  try {
    await host.runtime.threads.saveThreads(call.unsavedThreads());
  } catch (saveError) {
    getDefaultLogger().error(
      { err: saveError, chatId: call.chatId, agency: host.name },
      `agency "${host.name}": the call failed, and saving the threads it wrote failed too`,
    );
  }
}
