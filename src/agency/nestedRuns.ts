/**
 * The bridge to the SDK's nested-run plumbing. When a send_message's recipient run stops for a
 * tool approval, registering its result for the tool call makes the SDK runner stop the caller's
 * run too (its interruptions include the nested ones) and keep the nested run's state; on resume
 * the runner calls send_message again with that state as `details.resumeState`. This is how the
 * SDK's own `agent.asTool()` works; the SDK function is reached through `src/sdk/`.
 * @module
 */
import { ColloquyError } from '../errors.js';
import { saveAgentToolRunResult } from '../sdk/agentToolRunResult.js';

/** Hands an interrupted nested run to the SDK runner for the tool call that started it. */
export async function registerNestedRun(toolCall: unknown, result: unknown): Promise<void> {
  if (!toolCall || typeof toolCall !== 'object') {
    throw new ColloquyError(
      'AGENCY_INVALID',
      'A sub-agent stopped for a tool approval, but its send_message tool passed no toolCall. ' +
        'Custom send_message tools must pass details.toolCall and details.resumeState to send().',
    );
  }
  await saveAgentToolRunResult(toolCall, result);
}
