/**
 * The `ask_<agency>` MCP tool: one message to an agency, its answer out. When the agency stops
 * for a tool approval, the approval goes to the user one of two ways:
 * - the MCP client supports elicitation and the transport can carry a server request (stdio):
 *   the user is asked in the host (`elicitation/create`, an `approve` checkbox) and the call goes
 *   on in the same tool call;
 * - otherwise (stateless Streamable HTTP, or a client without elicitation): the tool answers that
 *   approval is needed, naming each pending tool call in `approvals`; calling the tool again with
 *   the `chatId` and `approve` (or `reject`) call ids continues the stopped call, which waits in the
 *   agency's thread store meanwhile (any server instance, after a restart too).
 * @module
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { PendingApproval } from '../agency/approvals.js';
import type { AgencyResponse } from '../agency/result.js';
import { ColloquyError } from '../errors.js';
import { newChatId } from './context.js';
import type { Executor } from './executor.js';
import { outputText } from './openaiInput.js';
import { pendingCallsOf } from './pendingCalls.js';
import type { ColloquyRuntime } from '../runtime.js';
import type { ServerRegistry } from './registry.js';

/** How many times one tool call asks the user before it hands the rest back (a loop guard). */
export const MAX_ELICITATIONS = 20;

const ids = z.array(z.string().min(1)).max(100);

/** The input of `ask_<agency>`. */
export const askInputSchema = {
  message: z.string().min(1).optional().describe('What to ask (omit when answering approvals)'),
  chatId: z.string().min(1).max(200).optional().describe('Continue this chat'),
  approve: ids.optional().describe('Approve these pending tool calls (ids from approvals)'),
  reject: ids.optional().describe('Reject these pending tool calls (ids from approvals)'),
};

/** The structured output of `ask_<agency>`. */
export const askOutputSchema = {
  answer: z.string(),
  chatId: z.string(),
  usage: z.looseObject({
    requests: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    totalTokens: z.number(),
  }),
  approvals: z
    .array(z.object({ id: z.string(), agent: z.string(), tool: z.string(), arguments: z.string() }))
    .optional()
    .describe('Tool calls waiting for the user: ask, then call again with approve or reject'),
};

type AskInput = { message?: string; chatId?: string; approve?: string[]; reject?: string[] };

/** What one ask needs: the app's registry and executor, the MCP server, and whether to elicit. */
export interface AskContext {
  registry: ServerRegistry;
  executor: Executor;
  server: McpServer;
  /** The transport carries server requests (stdio): ask approvals by elicitation when supported. */
  elicit: boolean;
  /** The tool's name (`ask_<agency>`), for the answer that says how to continue. */
  tool: string;
  /** Where stopped calls are kept (default: the default runtime). */
  runtime?: ColloquyRuntime | undefined;
}

/** Runs one `ask_<agency>` call; its result is the tool's result. */
export async function ask(context: AskContext, name: string, input: AskInput, signal: AbortSignal) {
  const { registry, executor } = context;
  const chatId = input.chatId ?? newChatId();
  const pending = pendingCallsOf(registry, context.runtime);
  const answering = input.approve !== undefined || input.reject !== undefined;
  registry.chats.remember(chatId, name);
  let result: AgencyResponse;
  if (answering) {
    const stopped = input.chatId ? await pending.take(name, input.chatId) : undefined;
    if (!stopped) {
      throw new ColloquyError(
        'INVALID_BODY',
        `No approval waits on chat "${input.chatId ?? '(none given)'}": it was answered already, or chatId is missing. Send a message instead.`,
      );
    }
    result = await executor.calls.resume(name, stopped.state, {
      signal,
      ...(input.approve ? { approve: input.approve } : {}),
      reject: [
        ...(input.reject ?? []),
        // An approval the answer leaves out is rejected: the call cannot stop on it twice.
        ...stopped.approvals
          .map((a) => a.callId)
          .filter((id) => !input.approve?.includes(id) && !input.reject?.includes(id)),
      ],
    });
  } else {
    if (!input.message) {
      throw new ColloquyError('INVALID_BODY', 'Give a message, or approve/reject with a chatId.');
    }
    await pending.take(name, chatId); // a new message abandons a stopped call
    result = await executor.calls.getResponse(name, input.message, { chatId, signal });
  }
  for (let asked = 0; result.interruptions && result.state && asked < MAX_ELICITATIONS; asked++) {
    const decisions = await elicitDecisions(context, result.interruptions, signal);
    if (!decisions) break;
    result = await executor.calls.resume(name, result.state, { signal, ...decisions });
  }
  if (result.interruptions && result.state) {
    await pending.set(chatId, {
      agency: name,
      state: result.state,
      approvals: result.interruptions,
      clientCalls: [],
      clientTools: [],
    });
    return approvalNeeded(context.tool, chatId, result);
  }
  const answer = outputText(result);
  return {
    content: [{ type: 'text' as const, text: answer }],
    structuredContent: { answer, chatId, usage: { ...result.usage } },
  };
}

/** Asks the user about each approval in the host, or null when the host cannot be asked. */
async function elicitDecisions(
  { server, elicit }: AskContext,
  approvals: readonly PendingApproval[],
  signal: AbortSignal,
): Promise<{ approve: string[]; reject: string[] } | null> {
  if (!elicit || !server.server.getClientCapabilities()?.elicitation) return null;
  const approve: string[] = [];
  const reject: string[] = [];
  for (const call of approvals) {
    const reply = await server.server.elicitInput(
      {
        message: `${call.agent} wants to run ${call.toolName}(${call.arguments}). Approve?`,
        requestedSchema: {
          type: 'object',
          properties: { approve: { type: 'boolean', title: 'Approve', default: false } },
          required: ['approve'],
        },
      },
      { signal },
    );
    const yes = reply.action === 'accept' && reply.content?.approve === true;
    (yes ? approve : reject).push(call.callId);
  }
  return { approve, reject };
}

function approvalNeeded(tool: string, chatId: string, result: AgencyResponse) {
  const approvals = (result.interruptions ?? []).map((call) => ({
    id: call.callId,
    agent: call.agent,
    tool: call.toolName,
    arguments: call.arguments,
  }));
  const list = approvals.map(
    (a) => `${a.agent} wants to run ${a.tool}(${a.arguments}) [id ${a.id}]`,
  );
  const answer = `Approval needed: ${list.join('; ')}. Ask the user; then call ${tool} again with chatId "${chatId}" and approve (or reject) set to the ids.`;
  return {
    content: [{ type: 'text' as const, text: answer }],
    structuredContent: { answer, chatId, usage: { ...result.usage }, approvals },
  };
}
