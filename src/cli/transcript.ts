/**
 * Renders an agency result as a tree: who said what to whom, nested under the send_message that
 * caused it, plus a usage table.
 * @module
 */
import type { AgencyResponse, TaggedItem, UsageSummary } from '../agency/result.js';

const INDENT = '  ';

function textOf(item: TaggedItem['item']): string {
  if (!('content' in item)) return '';
  const content = item.content as unknown;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

function argsOf(item: TaggedItem['item']): Record<string, unknown> {
  if (item.type !== 'function_call') return {};
  try {
    return JSON.parse(item.arguments) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The conversation tree, one line (or more, for multi-line text) per step. */
export function renderTranscript(message: string, result: AgencyResponse, entry: string): string[] {
  const lines = [`user → ${entry}: ${message}`];
  const push = (depth: number, text: string): void => {
    const pad = INDENT.repeat(depth + 1);
    text.split('\n').forEach((line, i) => lines.push(`${pad}${i === 0 ? '' : INDENT}${line}`));
  };
  for (const tagged of result.newItems) {
    const { item, agent, depth } = tagged;
    if (item.type === 'function_call') {
      const args = argsOf(item);
      if (item.name === 'send_message') push(depth, `${agent} → ${String(args.recipient)}: ${String(args.message)}`);
      else push(depth, `${agent} calls ${item.name}(${item.arguments})`);
    } else if (item.type === 'function_call_result' && item.name !== 'send_message') {
      push(depth, `${item.name} → ${JSON.stringify(item.output)}`);
    } else if ('role' in item && item.role === 'assistant') {
      push(depth, `${agent}${tagged.callerAgent ? ` → ${tagged.callerAgent}` : ' → user'}: ${textOf(item)}`);
    }
  }
  return lines;
}

/** A usage table: one row per agent, then the total. */
export function renderUsage(perAgent: ReadonlyMap<string, UsageSummary>, total: UsageSummary): string[] {
  const rows: Array<[string, UsageSummary]> = [...perAgent, ['total', total]];
  const width = Math.max(5, ...rows.map(([name]) => name.length));
  const cell = (value: number | string): string => String(value).padStart(9);
  const header = `${'agent'.padEnd(width)}${cell('requests')}${cell('input')}${cell('output')}${cell('total')}`;
  return [
    header,
    '-'.repeat(header.length),
    ...rows.map(
      ([name, u]) =>
        `${name.padEnd(width)}${cell(u.requests)}${cell(u.inputTokens)}${cell(u.outputTokens)}${cell(u.totalTokens)}`,
    ),
  ];
}
