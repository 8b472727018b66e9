/**
 * The bridge to the SDK's nested-run plumbing. When a send_message's recipient run stops for a
 * tool approval, registering its result for the tool call makes the SDK runner stop the caller's
 * run too (its interruptions include the nested ones) and keep the nested run's state; on resume
 * the runner calls send_message again with that state as `details.resumeState`. This is how the
 * SDK's own `agent.asTool()` works; the registration function is internal to
 * `@openai/agents-core` 0.20.0 (pinned in package.json), and `test/agency/agency.approvals.test.ts`
 * fails if an upgrade moves it.
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ColloquyError } from '../errors.js';

type Save = (toolCall: unknown, result: unknown) => void;
let save: Promise<Save> | undefined;

async function loadSave(): Promise<Save> {
  const entry = createRequire(import.meta.url).resolve('@openai/agents-core');
  const url = pathToFileURL(join(dirname(entry), 'agentToolRunResults.mjs')).href;
  const module = (await import(url)) as { saveAgentToolRunResult?: Save };
  if (typeof module.saveAgentToolRunResult !== 'function') {
    throw new ColloquyError(
      'AGENCY_INVALID',
      'This version of @openai/agents-core does not expose saveAgentToolRunResult, which nested tool approvals need. ' +
        'Install the version package.json pins.',
    );
  }
  return module.saveAgentToolRunResult;
}

/** Hands an interrupted nested run to the SDK runner for the tool call that started it. */
export async function registerNestedRun(toolCall: unknown, result: unknown): Promise<void> {
  if (!toolCall) {
    throw new ColloquyError(
      'AGENCY_INVALID',
      'A sub-agent stopped for a tool approval, but its send_message tool passed no toolCall. ' +
        'Custom send_message tools must pass details.toolCall and details.resumeState to send().',
    );
  }
  save ??= loadSave();
  (await save)(toolCall, result);
}
