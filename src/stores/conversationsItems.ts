/**
 * How {@link ConversationsStore} writes thread items as Conversations API items, and reads back
 * items it did not write (`adoptConversation`). Messages and function calls and their results
 * become the service's own item types, so the conversation is usable by the Responses API and
 * shown by the Foundry portal; any other item (reasoning, hosted tool calls…) is written as a
 * short `developer` note naming its type. The exact item JSON is never taken from the service:
 * the store's index keeps it (see `docs/stores.md`).
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';
import type { ThreadItem } from './item.js';

/** An item as the Conversations API takes and returns it. */
export type ApiItem = Record<string, unknown> & { type: string; id?: string };

type Part = Record<string, unknown> & { type?: string };

const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

function apiPart(part: Part, assistant: boolean): Part {
  if (part.type === 'input_text' || part.type === 'output_text')
    return assistant
      ? { type: 'output_text', text: text(part.text), annotations: [] }
      : { type: 'input_text', text: text(part.text) };
  if (part.type === 'refusal' && assistant) return { type: 'refusal', refusal: text(part.refusal) };
  if (part.type === 'input_image' && typeof part.image === 'string' && !assistant)
    return { type: 'input_image', image_url: part.image, detail: part.detail ?? 'auto' };
  const note = `[${String(part.type ?? 'content')} kept by Colloquy]`;
  return assistant
    ? { type: 'output_text', text: note, annotations: [] }
    : { type: 'input_text', text: note };
}

/** The Conversations API item written for one thread item. */
export function toApiItem(entry: ThreadItem): ApiItem {
  const item = entry.item as Record<string, unknown>;
  const role = item.role;
  if (
    typeof role === 'string' &&
    ROLES.has(role) &&
    (item.type === undefined || item.type === 'message')
  ) {
    const assistant = role === 'assistant';
    const content = item.content;
    const parts: Part[] =
      typeof content === 'string'
        ? [
            assistant
              ? { type: 'output_text', text: content, annotations: [] }
              : { type: 'input_text', text: content },
          ]
        : Array.isArray(content)
          ? (content as Part[]).map((p) => apiPart(p, assistant))
          : [];
    return { type: 'message', role, content: parts };
  }
  if (item.type === 'function_call')
    return {
      type: 'function_call',
      call_id: text(item.callId),
      name: text(item.name),
      arguments: text(item.arguments ?? ''),
    };
  if (item.type === 'function_call_result') {
    const output = item.output as Part | string | undefined;
    const out =
      typeof output === 'string'
        ? output
        : output && output.type === 'text'
          ? text(output.text)
          : JSON.stringify(output ?? null);
    return { type: 'function_call_output', call_id: text(item.callId), output: out };
  }
  return {
    type: 'message',
    role: 'developer',
    content: [
      { type: 'input_text', text: `[${String(item.type ?? 'item')} ${entry.id} kept by Colloquy]` },
    ],
  };
}

/**
 * A thread item for a service item the index has no copy of: the service's own id becomes the
 * item id, and the item takes the `@openai/agents-core` shape (lossy: no `meta`, provider data
 * or non-text parts beyond what the service kept).
 */
export function fromApiItem(api: ApiItem): ThreadItem {
  const id = String(api.id ?? '');
  if (api.type === 'message') {
    const role = String(api.role);
    const parts = (Array.isArray(api.content) ? api.content : []) as Part[];
    const item =
      role === 'assistant'
        ? {
            role: 'assistant',
            status: 'completed',
            content: parts.map((p) =>
              p.type === 'refusal'
                ? { type: 'refusal', refusal: text(p.refusal) }
                : { type: 'output_text', text: text(p.text) },
            ),
          }
        : { role, content: parts.map((p) => ({ type: 'input_text', text: text(p.text) })) };
    return { id, item: item as AgentInputItem };
  }
  if (api.type === 'function_call')
    return {
      id,
      item: {
        type: 'function_call',
        callId: text(api.call_id),
        name: text(api.name),
        arguments: text(api.arguments),
        status: 'completed',
      },
    };
  if (api.type === 'function_call_output')
    return {
      id,
      item: {
        type: 'function_call_result',
        callId: text(api.call_id),
        name: '',
        status: 'completed',
        output: { type: 'text', text: text(api.output) },
      },
    };
  return { id, item: { ...api } as unknown as AgentInputItem };
}
