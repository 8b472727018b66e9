/**
 * Client tools: tools a caller declares for one call (a browser's frontend tools, an OpenAI
 * client's `tools`) and runs itself. The entry point sees them as function tools. When the model
 * calls one, the call stops like a tool approval (`interruptions`, `state`); the caller runs the
 * tool and resumes with its output (`toolOutputs`), which the tool then returns to the model.
 * @module
 */
import { tool, type FunctionTool, type RunContext } from '@openai/agents-core';
import { ColloquyError } from '../errors.js';
import { frameOf } from './call.js';

/** A tool the caller runs itself: its name, what it does, and its parameters' JSON schema. */
export interface ClientToolDefinition {
  name: string;
  description?: string | undefined;
  /** A JSON schema of an object (default: any object). */
  parameters?: Record<string, unknown> | undefined;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The function tool the entry point gets for a client tool definition. */
export function clientTool(definition: ClientToolDefinition): FunctionTool<any, any, string> {
  if (!NAME.test(definition.name)) {
    throw new ColloquyError(
      'AGENCY_INVALID',
      `Client tool name "${definition.name.slice(0, 80)}" is not valid: use 1–64 letters, digits, "_" or "-".`,
    );
  }
  const schema = definition.parameters ?? { type: 'object', properties: {} };
  return tool({
    name: definition.name,
    description: definition.description ?? `The caller's tool ${definition.name}.`,
    parameters: {
      type: 'object',
      properties: {},
      ...schema,
      additionalProperties: true,
    } as never,
    strict: false,
    needsApproval: true,
    execute: (_input: unknown, runContext?: RunContext<unknown>, details?) => {
      const callId = details?.toolCall?.callId ?? '';
      const output = frameOf(runContext)?.call.toolOutputs?.[callId];
      if (output === undefined) {
        throw new ColloquyError(
          'INVALID_BODY',
          `Client tool "${definition.name}" (call ${callId}) was approved without its output. Resume with toolOutputs: { "${callId}": "<result>" }.`,
        );
      }
      return output;
    },
  });
}

/** The function tools of a call's client tool definitions (empty when none). */
export function clientTools(
  definitions: readonly ClientToolDefinition[] | undefined,
): FunctionTool<any, any, string>[] {
  return (definitions ?? []).map(clientTool);
}
