/**
 * Renders an agency result as a tree: who said what to whom, nested under the send_message that
 * caused it, plus a usage table.
 * @module
 */
import type { AgencyResponse, TaggedItem } from '../agency/result.js';
import type { Usage } from '../usage.js';
import type { ThreadItem } from '../stores/item.js';
import { renderTable } from './table.js';

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
    // Arguments that are not JSON: shown without fields.
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
      if (item.name === 'send_message')
        push(depth, `${agent} → ${String(args.recipient)}: ${String(args.message)}`);
      else push(depth, `${agent} calls ${item.name}(${item.arguments})`);
    } else if (item.type === 'function_call_result' && item.name !== 'send_message') {
      push(depth, `${item.name} → ${JSON.stringify(item.output)}`);
    } else if ('role' in item && item.role === 'assistant') {
      push(
        depth,
        `${agent}${tagged.callerAgent ? ` → ${tagged.callerAgent}` : ' → user'}: ${textOf(item)}`,
      );
    }
  }
  return lines;
}

/** Earlier turns of an entry point's thread with the user: messages and delegations, one per line. */
export function renderHistory(items: readonly ThreadItem[], entry: string): string[] {
  const lines: string[] = [];
  for (const { item } of items) {
    if ('role' in item && item.role === 'user') lines.push(`user → ${entry}: ${textOf(item)}`);
    else if ('role' in item && item.role === 'assistant')
      lines.push(`${INDENT}${entry} → user: ${textOf(item)}`);
    else if (item.type === 'function_call' && item.name === 'send_message') {
      const args = argsOf(item);
      lines.push(`${INDENT}${entry} → ${String(args.recipient)}: ${String(args.message)}`);
    }
  }
  return lines.flatMap((line) =>
    line.split('\n').map((part, i) => (i === 0 ? part : `${INDENT.repeat(2)}${part}`)),
  );
}

/** A usage table: a header, one row per agent, then the total (numbers right-aligned). */
export function renderUsage(perAgent: ReadonlyMap<string, Usage>, total: Usage): string[] {
  const rows: Array<[string, Usage]> = [...perAgent, ['total', total]];
  const priced = total.costPico !== undefined;
  // Cost to the micro-dollar (the sums are exact in pico-dollars).
  const cost = (u: Usage): string[] =>
    priced ? [u.cost === undefined ? '-' : `$${u.cost.toFixed(6)}`] : [];
  return renderTable(
    ['agent', 'requests', 'input', 'output', 'total', ...(priced ? ['cost'] : [])],
    rows.map(([name, u]) => [
      name,
      u.requests,
      u.inputTokens,
      u.outputTokens,
      u.totalTokens,
      ...cost(u),
    ]),
    { align: ['left', 'right', 'right', 'right', 'right', 'right'] },
  );
}
