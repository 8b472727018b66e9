/**
 * Turning a saved pending call (`result.state`) back into a call: the agent as it ran (with the
 * call's client tools and output type), its SDK run state, and the chat and run it belongs to.
 * @module
 */
import { RunState } from '@openai/agents-core';
import type { Agent as SdkAgent } from '@openai/agents-core';
import { parsePendingCall } from './approvals.js';
import type { ChatCallOptions, ResumePoint } from './chatCall.js';
import { clientTools } from './clientTools.js';
import type { ResumeOptions } from './options.js';

/** The call that continues `state`: an empty message, its options, and where to resume. */
export async function resumedCall(
  runtimeAgent: (name: string) => SdkAgent<any, any>,
  state: string,
  options: ResumeOptions,
): Promise<{ message: ''; callOptions: ChatCallOptions; resume: ResumePoint }> {
  const pending = parsePendingCall(state);
  const base = runtimeAgent(pending.agent);
  const extra = clientTools(options.clientTools);
  const agent =
    extra.length > 0 || options.outputType
      ? base.clone({
          ...(extra.length > 0 ? { tools: [...base.tools, ...extra] } : {}),
          ...(options.outputType ? { outputType: options.outputType } : {}),
        })
      : base;
  const runState = await RunState.fromString(agent, pending.state);
  return {
    message: '',
    callOptions: { ...options, chatId: pending.chatId, recipient: pending.agent },
    resume: { runId: pending.runId, state: runState },
  };
}
