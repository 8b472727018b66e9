/**
 * The SDK's record of a nested run started by a tool call. When a `send_message` recipient's run
 * stops for a tool approval, saving its result for the tool call makes the SDK runner stop the
 * caller's run too (its interruptions include the nested ones) and keep the nested run's state;
 * on resume the runner calls the tool again with that state. The SDK's own `agent.asTool()` works
 * this way, but the function lives in an internal module (`dist/agentToolRunResults.mjs`), so it is
 * loaded here by file path. `test/sdk/agentToolRunResult.test.ts` fails if an SDK release moves it.
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ColloquyError } from '../errors.js';

/** The functions of the SDK's internal module that Colloquy uses. */
export interface AgentToolRunResults {
  saveAgentToolRunResult(toolCall: unknown, result: unknown): void;
  consumeAgentToolRunResult(toolCall: unknown): unknown;
}

/** The SDK's internal module, found next to the package's entry file. */
export async function loadAgentToolRunResults(): Promise<AgentToolRunResults> {
  const entry = createRequire(import.meta.url).resolve('@openai/agents-core');
  const url = pathToFileURL(join(dirname(entry), 'agentToolRunResults.mjs')).href;
  // A missing file is the SDK changing shape: the check below says so.
  const module = (await import(url).catch(() => ({}))) as Partial<AgentToolRunResults>;
  if (
    typeof module.saveAgentToolRunResult !== 'function' ||
    typeof module.consumeAgentToolRunResult !== 'function'
  ) {
    throw new ColloquyError(
      'AGENCY_INVALID',
      `@openai/agents-core at ${dirname(entry)} has no agentToolRunResults.mjs exporting ` +
        'saveAgentToolRunResult, which nested tool approvals need. Install a version in the range ' +
        "colloquy's package.json allows.",
    );
  }
  return module as AgentToolRunResults;
}

/** Hands a nested run's result to the SDK runner for the tool call that started it. */
export async function saveAgentToolRunResult(toolCall: object, result: unknown): Promise<void> {
  (await loadAgentToolRunResults()).saveAgentToolRunResult(toolCall, result);
}
