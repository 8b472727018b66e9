/**
 * Helpers for scripted responders: read what a model request contains.
 * @module
 */
import type { AgentInputItem, ModelRequest } from '@openai/agents-core';

function items(request: ModelRequest): AgentInputItem[] {
  return typeof request.input === 'string'
    ? [{ role: 'user', content: request.input } as AgentInputItem]
    : request.input;
}

function textOf(item: AgentInputItem): string {
  if (item.type === 'function_call_result') {
    const output = item.output as unknown;
    if (typeof output === 'string') return output;
    if (output && typeof output === 'object' && 'text' in output) return String(output.text);
    return JSON.stringify(output);
  }
  if ('content' in item) {
    const content = item.content as unknown;
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
      return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
    }
  }
  return '';
}

/** The text of the newest user message in the request ('' if none). */
export function lastUserText(request: ModelRequest): string {
  const list = items(request);
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i]!;
    if ('role' in item && item.role === 'user') return textOf(item);
  }
  return '';
}

/** The newest item of the request, or undefined. */
export function lastItem(request: ModelRequest): AgentInputItem | undefined {
  return items(request).at(-1);
}

/**
 * Tool outputs that follow the newest user message, oldest first: what the tools answered in the
 * turn the model is in now.
 */
export function toolOutputsSinceUser(request: ModelRequest): string[] {
  const list = items(request);
  const outputs: string[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i]!;
    if ('role' in item && item.role === 'user') break;
    if (item.type === 'function_call_result') outputs.unshift(textOf(item));
  }
  return outputs;
}
