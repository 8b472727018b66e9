/**
 * Reading AG-UI's `RunAgentInput`: the body schema, which messages are new to the chat (clients
 * resend the whole history on every run), frontend tools as client tools, and resume entries as
 * approval decisions.
 * @module
 */
import { z } from 'zod';
import type { ClientToolDefinition } from '../../agency/clientTools.js';
import type { ApprovalDecisions } from '../../agency/approvals.js';
import { idSchema } from '../context.js';
import { onDisconnectSchema } from '../runs/streamedRun.js';
import { HttpError } from '../errors.js';
import { plainText, type WirePart } from '../openaiInput.js';
import type { PendingChatCall } from '../pendingCalls.js';

const messageSchema = z.looseObject({
  id: z.string().optional(),
  role: z.string().min(1, 'expected the message role (user, assistant, tool, …)'),
  content: z
    .union([z.string(), z.array(z.looseObject({ type: z.string() }))])
    .nullable()
    .optional(),
  toolCallId: z.string().optional(),
});

/** The part of AG-UI's `RunAgentInput` Colloquy reads (`threadId` is the chat id). */
export const runAgentInputSchema = z.looseObject({
  threadId: idSchema,
  runId: z.string().min(1, 'expected the run id the client chose'),
  messages: z.array(messageSchema),
  tools: z
    .array(
      z.looseObject({
        name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1–64 letters, digits, _ or -'),
        description: z.string().optional(),
        parameters: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .optional(),
  context: z.array(z.looseObject({ description: z.string(), value: z.string() })).optional(),
  resume: z
    .array(
      z.looseObject({
        interruptId: z.string().min(1),
        status: z.enum(['resolved', 'cancelled']),
        payload: z.unknown().optional(),
      }),
    )
    .optional(),
  /** Colloquy's: what the client disconnecting does to the call (see runs/streamedRun.ts). */
  onDisconnect: onDisconnectSchema,
});

/** A parsed `RunAgentInput`. */
export type RunAgentBody = z.output<typeof runAgentInputSchema>;
type Message = RunAgentBody['messages'][number];

const textOf = (message: Message): string =>
  plainText(message.content as string | WirePart[] | null | undefined);

/** The client's frontend tools as client tool definitions. */
export function clientToolsOf(body: RunAgentBody): ClientToolDefinition[] {
  return (body.tools ?? []).map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  }));
}

/** The app's `context` entries as extra instructions for the entry point. */
export function contextInstructions(body: RunAgentBody): string | undefined {
  const entries = body.context ?? [];
  if (entries.length === 0) return undefined;
  return [
    'Context from the application:',
    ...entries.map((e) => `- ${e.description}: ${e.value}`),
  ].join('\n');
}

/**
 * The new user message of a run: the user messages after the last message of another role. When
 * the chat holds nothing yet (`known` false), earlier messages are folded in as a transcript.
 */
export function newUserMessage(messages: readonly Message[], known: boolean): string {
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.role === 'user') first--;
  const text = messages
    .slice(first)
    .map(textOf)
    .filter((t) => t.trim() !== '')
    .join('\n\n');
  if (text === '') {
    throw new HttpError(
      400,
      'INVALID_BODY',
      'The messages do not end with a non-empty user message, and no interrupt or tool call is waiting on this thread. Add the user message to "messages".',
      'messages',
    );
  }
  const earlier = messages
    .slice(0, first)
    .filter((m) => (m.role === 'user' || m.role === 'assistant') && textOf(m).trim() !== '');
  if (known || earlier.length === 0) return text;
  const transcript = earlier.map((m) => `${m.role}: ${textOf(m)}`).join('\n');
  return `Earlier in this conversation:\n${transcript}\n\n${text}`;
}

/** Whether a resume entry's payload approves: `true`, `{ approved: true }` or `{ approve: true }`. */
function approves(payload: unknown): boolean {
  if (payload === true) return true;
  const value = payload as { approved?: unknown; approve?: unknown } | null | undefined;
  return value?.approved === true || value?.approve === true;
}

/**
 * What answers a stopped call: decisions from `resume` entries and outputs of client tool calls
 * from tool messages; null when the input answers nothing (a new message instead).
 */
export function answersOf(
  body: RunAgentBody,
  pending: PendingChatCall,
): (ApprovalDecisions & { toolOutputs: Record<string, string> }) | null {
  const toolOutputs: Record<string, string> = {};
  const clientIds = new Set(pending.clientCalls.map((call) => call.callId));
  for (const message of body.messages) {
    if (message.role === 'tool' && message.toolCallId && clientIds.has(message.toolCallId)) {
      toolOutputs[message.toolCallId] = textOf(message);
    }
  }
  const entries = body.resume ?? [];
  if (entries.length === 0 && Object.keys(toolOutputs).length === 0) return null;
  const approve = entries
    .filter((e) => e.status === 'resolved' && approves(e.payload))
    .map((e) => e.interruptId);
  const reject = entries.filter((e) => !approve.includes(e.interruptId)).map((e) => e.interruptId);
  const answered = new Set([...approve, ...reject, ...Object.keys(toolOutputs)]);
  const missing = [...pending.approvals, ...pending.clientCalls].filter(
    (call) => !answered.has(call.callId),
  );
  if (missing.length > 0) {
    throw new HttpError(
      400,
      'INVALID_BODY',
      `The run is waiting on ${missing.map((call) => `${call.toolName} (${call.callId})`).join(', ')}. ` +
        'Answer each interrupt with a "resume" entry ({ interruptId, status, payload: { approved } }) and each frontend tool call with a tool message.',
      'resume',
    );
  }
  return { approve, reject, toolOutputs };
}
