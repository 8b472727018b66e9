/**
 * The text of thread items, for embedding, recall blocks and summaries.
 * @module
 */
import type { AgentInputItem } from '@openai/agents-core';

/** The text of a user or assistant message item, or undefined for other items. */
export function messageText(
  item: AgentInputItem,
): { role: 'user' | 'assistant'; text: string } | undefined {
  const message = item as { type?: string; role?: string; content?: unknown };
  if (message.type !== undefined && message.type !== 'message') return undefined;
  if (message.role !== 'user' && message.role !== 'assistant') return undefined;
  const content = message.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content
            .map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : ''))
            .join('')
        : '';
  return text.trim() ? { role: message.role, text: text.trim() } : undefined;
}

/** An item as one transcript line (`role: text`; tool calls by name). */
export function transcriptLine(item: AgentInputItem): string | undefined {
  const message = messageText(item);
  if (message) return `${message.role}: ${message.text}`;
  const call = item as { type?: string; name?: string; output?: unknown };
  if (call.type === 'function_call') return `(tool call: ${call.name ?? '?'})`;
  return undefined;
}
