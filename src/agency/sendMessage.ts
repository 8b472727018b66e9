/**
 * The send_message tool: how an agent talks to the agents it may message. Every failure (a
 * recipient outside the agent's flows, recursion too deep, the recipient failing, a second
 * message to the same recipient while the first is unanswered) comes back as the tool's output,
 * and the caller goes on. Aborts and store failures are not swallowed: they end the whole call.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { tool } from '@openai/agents-core';
import type { FunctionTool, RunContext } from '@openai/agents-core';
import { ColloquyError } from '../errors.js';
import { storeErrorIn } from './errorCauses.js';
import { registerNestedRun } from './nestedRuns.js';
import { frameOf, type RunFrame } from './call.js';
import { sendStep, type SendStep } from './journal/journaledSend.js';
import type { AgencyRuntime } from './runtime.js';
import { runTurn } from './runTurn.js';

/** The name of the tool every agent with outgoing flows gets. */
export const SEND_MESSAGE_TOOL_NAME = 'send_message';

/** One message an agent wants to send. */
export interface SendRequest {
  /** The agent whose tool sends (after a handoff it differs from the agent the run started with). */
  sender: string;
  recipient: string;
  message: string;
  additionalInstructions?: string | null;
  /** The run context the tool was called with (identifies the sending run). */
  runContext: RunContext<unknown> | undefined;
  /** The tool call's id, which ties the recipient's run to this call in the call tree. */
  callId?: string | undefined;
  /** The SDK's tool call object (`details.toolCall`): needed for tool approvals inside the recipient. */
  toolCall?: unknown;
  /** The recipient's stopped run to continue (`details.resumeState`), when resuming after approvals. */
  resumeState?: string | undefined;
}

/** Sends a message and resolves with the recipient's answer, or with error text. */
export type SendFunction = (request: SendRequest) => Promise<string>;

/** What a send_message tool factory receives. */
export interface SendMessageToolContext {
  /** The sending agent's name. */
  sender: string;
  /** The agents it may message, with their descriptions. */
  recipients: ReadonlyArray<{ name: string; description: string }>;
  /** Does the sending: checks, recursion, threads, usage; never throws for agent failures. */
  send: SendFunction;
}

/** Builds the send_message tool of one agent; pass your own as `Agency({ sendMessageTool })`. */
export type SendMessageToolFactory = (
  context: SendMessageToolContext,
) => FunctionTool<any, any, any>;

/** The default send_message tool: `recipient` is an enum of exactly the allowed recipients. */
export const defaultSendMessageTool: SendMessageToolFactory = ({ sender, recipients, send }) => {
  const listing = recipients
    .map(({ name, description }) => `- ${name}${description ? `: ${description}` : ''}`)
    .join('\n');
  return tool({
    name: SEND_MESSAGE_TOOL_NAME,
    description:
      `Send a message to another agent and wait for its reply. ${sender} may message:\n${listing}\n` +
      'Write the message so that it stands alone: the recipient sees only this conversation with you.',
    strict: true,
    parameters: {
      type: 'object',
      properties: {
        recipient: {
          type: 'string',
          enum: recipients.map((r) => r.name),
          description: 'The agent to message.',
        },
        message: { type: 'string', description: 'What to tell or ask the recipient.' },
        additionalInstructions: {
          type: ['string', 'null'],
          description: 'Extra instructions for the recipient for this message only, or null.',
        },
      },
      required: ['recipient', 'message', 'additionalInstructions'],
      additionalProperties: false,
    },
    // Errors are turned into outputs by `send`; anything that still throws must end the call.
    errorFunction: null,
    execute: async (input, runContext, details) => {
      const args = parseArgs(input);
      if (typeof args === 'string') return args;
      return send({
        ...args,
        sender,
        runContext: runContext as RunContext<unknown> | undefined,
        callId: details?.toolCall?.callId,
        toolCall: details?.toolCall,
        resumeState: details?.resumeState,
      });
    },
  });
};

function parseArgs(input: unknown): Omit<SendRequest, 'sender' | 'runContext' | 'callId'> | string {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      // The model sent broken arguments: it reads why in the tool output.
      return `Error: send_message arguments are not valid JSON: ${input.slice(0, 200)}`;
    }
  }
  const args = (value ?? {}) as Record<string, unknown>;
  if (typeof args.recipient !== 'string' || typeof args.message !== 'string') {
    return 'Error: send_message needs a string "recipient" and a string "message".';
  }
  const extra = args.additionalInstructions;
  return {
    recipient: args.recipient,
    message: args.message,
    additionalInstructions: typeof extra === 'string' ? extra : null,
  };
}

/** The `send` function of an agency: validates the request and runs the recipient's turn. */
export function createSend(runtime: AgencyRuntime): SendFunction {
  return async (request) => {
    const frame = frameOf(request.runContext);
    if (!frame) {
      throw new ColloquyError(
        'AGENCY_INVALID',
        'send_message was called outside an agency run. Run the agent through Agency.getResponse.',
      );
    }
    const { sender, recipient } = request;
    const refusal = refuse(runtime, frame, sender, recipient);
    if (refusal) return refusal;

    const pair = `${sender}\u0000${recipient}`;
    frame.inFlight.add(pair);
    // Journaled (and on a retry answered from the journal) when the call has a step journal.
    let step: SendStep;
    try {
      const found = sendStep(frame, request.callId, recipient);
      step = found instanceof Promise ? await found : found;
    } catch (error) {
      frame.inFlight.delete(pair);
      throw error;
    }
    const child: RunFrame = {
      agent: recipient,
      callerAgent: sender,
      runId: `run_${randomUUID()}`,
      parentRunId: frame.runId,
      depth: frame.depth + 1,
      call: frame.call,
      viaCallId: request.callId ?? null,
      additionalInstructions: request.additionalInstructions ?? undefined,
      inFlight: new Set(),
      journalPath: step.path,
    };
    let answer: string;
    try {
      const resume = request.resumeState ? { state: request.resumeState } : undefined;
      const outcome = await untilAborted(
        runTurn(runtime, child, request.message, resume),
        frame.call.signal,
      );
      if (outcome.interruptions.length > 0) {
        // The caller's run stops too; the SDK keeps this run's state and resumes it through us.
        await registerNestedRun(request.toolCall, outcome.result);
        return '';
      }
      const { finalOutput } = outcome;
      answer = typeof finalOutput === 'string' ? finalOutput : JSON.stringify(finalOutput);
    } catch (error) {
      if (frame.call.signal?.aborted) throw error;
      const storeError = storeErrorIn(error);
      if (storeError) throw storeError;
      answer = `Error: ${recipient} failed to answer: ${(error as Error)?.message ?? String(error)}`;
    } finally {
      frame.inFlight.delete(pair);
    }
    return step.settle(answer);
  };
}

/**
 * Settles with the nested turn, or rejects as soon as the call is aborted: a nested tool that
 * ignores the signal must not keep the whole call hanging.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  // One `then` with both handlers (no `.finally` chain): two promises fewer a send on a server,
  // whose calls always carry a signal.
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new ColloquyError('ABORTED', 'The agency call was aborted through its signal.');
}

function refuse(
  runtime: AgencyRuntime,
  frame: RunFrame,
  sender: string,
  recipient: string,
): string | null {
  const allowed = runtime.recipientsOf(sender);
  if (!allowed.includes(recipient)) {
    return (
      `Error: ${sender} cannot message "${recipient}". ` +
      `Allowed recipients: ${allowed.length > 0 ? allowed.join(', ') : 'none'}.`
    );
  }
  if (frame.depth + 1 > runtime.maxRecursionDepth) {
    return (
      `Error: not sent to ${recipient}: the conversation is already ${frame.depth} messages deep ` +
      `and the agency allows at most ${runtime.maxRecursionDepth}. Answer with what you have.`
    );
  }
  if (frame.inFlight.has(`${sender}\u0000${recipient}`)) {
    return (
      `Error: ${sender} is already waiting for ${recipient}'s answer to another message. ` +
      `Send one message to ${recipient} at a time and wait for the reply.`
    );
  }
  return null;
}
