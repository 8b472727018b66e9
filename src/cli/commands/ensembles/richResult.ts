/**
 * `colloquy invoke --output rich`: a run's result for people. A status line, the turns as a
 * table (each output on one line), each agent's result (text as text, JSON objects as YAML) and
 * the final state as YAML, long values cut with a pointer to `--output json`. Colour only when
 * the output is a terminal and `NO_COLOR` is unset.
 * @module
 */
import { stringify } from 'yaml';
import type { ConversationResult } from '../../../ensembles/result.js';
import type { LlmOrcView } from '../../../ensembles/llmorc/results.js';
import type { Paint } from '../../style.js';
import { renderTable } from '../../table.js';

/** Lines of one value shown before it is cut. */
export const RICH_MAX_LINES = 20;
/** Characters of a turn's output in the turns table. */
export const RICH_CELL_WIDTH = 72;

/** A JSON object or array inside a string (llm-orc's `response`), parsed; anything else as is. */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Only looked like JSON: shown as the text it is.
    return value;
  }
}

/** A value as lines: text as text, objects as YAML, cut after {@link RICH_MAX_LINES}. */
export function valueLines(value: unknown, maxLines = RICH_MAX_LINES): string[] {
  const shown = parsed(value);
  const text =
    typeof shown === 'string' ? shown : stringify(shown, { lineWidth: 0 }).replace(/\n$/, '');
  const lines = text.split('\n');
  if (lines.length <= maxLines) return lines;
  const more = lines.length - maxLines;
  return [
    ...lines.slice(0, maxLines),
    `… ${more} more line${more === 1 ? '' : 's'} (--output json shows all)`,
  ];
}

/** A value on one line for a table cell: text's first line, objects as flow YAML, cut. */
export function oneLine(value: unknown, width = RICH_CELL_WIDTH): string {
  const shown = parsed(value);
  const text =
    typeof shown === 'string'
      ? shown
      : stringify(shown, { collectionStyle: 'flow', lineWidth: 0 }).trim();
  const flat = text.replace(/\s*\n\s*/g, ' ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

const indent = (lines: string[], by = '  ') => lines.map((line) => `${by}${line}`);

/** The rich rendering of a run, as lines. */
export function renderRichResult(
  result: ConversationResult,
  paint: Paint,
  view?: LlmOrcView,
  detailed = true,
): string[] {
  const ok = result.completion_reason !== 'error' && (view?.status ?? 'completed') === 'completed';
  const status = ok
    ? paint('green', `✓ ${result.completion_reason}`)
    : paint('red', `✗ ${view?.status ?? result.completion_reason}`);
  const usage = `${result.usage.requests} requests, ${result.usage.total_tokens} tokens`;
  const lines = [
    `${status}  ${paint('dim', `${result.turn_count} turns · ${usage} · run ${result.run_id}`)}`,
  ];
  if (result.error)
    lines.push(
      paint('red', `error: ${result.error.agent ?? '(scheduler)'}: ${result.error.message}`),
    );
  const heading = (text: string) => lines.push('', paint('bold', text));
  if (result.conversation_history.length > 0) {
    heading('Turns');
    const rows = result.conversation_history.map((turn) => [
      turn.turn_number,
      paint('cyan', turn.agent_name),
      `${turn.execution_time.toFixed(2)} s`,
      oneLine(turn.output_data),
    ]);
    lines.push(
      ...renderTable(['turn', 'agent', 'time', 'output'], rows, {
        align: ['right', 'left', 'right'],
        head: (text) => paint('dim', text),
        indent: 2,
      }),
    );
  }
  if (detailed && view && Object.keys(view.results).length > 0) {
    heading('Results');
    for (const [agent, item] of Object.entries(view.results)) {
      const mark =
        item.status === 'success'
          ? paint('green', '✓')
          : item.status === 'failed'
            ? paint('red', '✗')
            : paint('dim', '-');
      lines.push(`  ${mark} ${paint('cyan', agent)} ${paint('dim', item.status)}`);
      const body =
        item.status === 'failed' ? [`error: ${item.error}`] : valueLines(item.response ?? '');
      if (item.status !== 'skipped') lines.push(...indent(body, '      '));
    }
  }
  heading('Final state');
  lines.push(...indent(valueLines(result.final_state)));
  return lines;
}
