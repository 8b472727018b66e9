/**
 * The stable, normalized form of a model request used to match recordings: system instructions,
 * input (role and text of messages, tool calls with canonical JSON arguments, tool results) and
 * the names of tools and handoffs. Provider item ids, call ids (renumbered in order of
 * appearance), statuses, timestamps and settings are left out.
 * @module
 */
import { createHash } from 'node:crypto';
import type { AgentInputItem, ModelRequest } from '@openai/agents-core';
import { configure } from 'safe-stable-stringify';

/**
 * JSON with object keys sorted, so equal values give equal text (`safe-stable-stringify`, which
 * pino already brings); a cycle throws, as `JSON.stringify` does.
 */
export const canonicalJson = configure({ circularValue: TypeError });

/** One input item, normalized. */
export type NormalizedItem =
  | { role: string; text: string }
  | { type: 'function_call'; call: string; name: string; arguments: unknown }
  | { type: 'function_call_result'; call: string; name?: string; output: string }
  | { type: string };

/** A model request, normalized for matching. */
export interface NormalizedRequest {
  system: string;
  input: NormalizedItem[];
  tools: string[];
  handoffs: string[];
  output: string;
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (part && typeof part === 'object') {
    const record = part as Record<string, unknown>;
    if (typeof record.text === 'string') return record.text;
    if (typeof record.refusal === 'string') return record.refusal;
    if (typeof record.type === 'string') return `[${record.type}]`;
  }
  return '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).join('');
  return partText(content);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: the key uses the text.
    return text;
  }
}

/** Normalizes a request (see the module comment). */
export function normalizeRequest(
  request: Pick<ModelRequest, 'systemInstructions' | 'input' | 'tools' | 'handoffs' | 'outputType'>,
): NormalizedRequest {
  const calls = new Map<string, string>();
  const callName = (id: unknown): string => {
    const key = String(id ?? '');
    if (!calls.has(key)) calls.set(key, `call_${calls.size + 1}`);
    return calls.get(key)!;
  };
  const items: AgentInputItem[] =
    typeof request.input === 'string'
      ? [{ role: 'user', content: request.input } as AgentInputItem]
      : request.input;
  const input = items.map((item): NormalizedItem => {
    const record = item as unknown as Record<string, unknown>;
    if (record.type === 'function_call') {
      return {
        type: 'function_call',
        call: callName(record.callId),
        name: String(record.name),
        arguments: parseJson(String(record.arguments ?? '')),
      };
    }
    if (record.type === 'function_call_result') {
      return {
        type: 'function_call_result',
        call: callName(record.callId),
        ...(typeof record.name === 'string' ? { name: record.name } : {}),
        output: contentText(record.output),
      };
    }
    if (typeof record.role === 'string')
      return { role: record.role, text: contentText(record.content) };
    return { type: String(record.type ?? 'unknown') };
  });
  const toolName = (tool: unknown) =>
    String((tool as { name?: string; type?: string }).name ?? (tool as { type?: string }).type);
  return {
    system: request.systemInstructions ?? '',
    input,
    tools: (request.tools ?? []).map(toolName).sort(),
    handoffs: (request.handoffs ?? []).map((handoff) => handoff.toolName).sort(),
    output:
      request.outputType === 'text' || request.outputType === undefined ? 'text' : 'json_schema',
  };
}

/** The matching key: a short hash of the normalized request's canonical JSON. */
export function requestKey(normalized: NormalizedRequest): string {
  return createHash('sha256').update(canonicalJson(normalized)).digest('hex').slice(0, 16);
}
