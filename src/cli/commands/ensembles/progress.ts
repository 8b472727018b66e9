/**
 * Progress of `colloquy invoke` on stderr (plain lines off a terminal), and the printing of its
 * result.
 * @module
 */
import type { EnsembleEvent } from '../../../ensembles/events.js';
import type { ConversationResult } from '../../../ensembles/result.js';
import type { LlmOrcView } from '../../../ensembles/llmorc/results.js';
import { painter } from '../../style.js';

/**
 * Prints progress on stderr as plain lines, one per event worth a line (off a terminal; on one,
 * `invoke` shows the live tree of `progress/liveProgress.ts` instead).
 */
export function progressReporter(): {
  onEvent: (event: EnsembleEvent) => void;
  stop: () => void;
} {
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  const line = (text: string) => void process.stderr.write(`${text}\n`);
  return {
    onEvent(event) {
      if (event.type === 'ensemble_started')
        line(`run ${event.run_id}${event.resumed ? ` (resumed at turn ${event.turn_count})` : ''}`);
      else if (event.type === 'agent_finished') {
        if (!event.success) line(`✗ ${event.agent}: ${event.error}`);
      } else if (event.type === 'agent_dispatched')
        line(`→ ${event.agent}: dispatch ${event.reference} → ${event.target}`);
      else if (event.type === 'turn_recorded')
        line(
          `turn ${event.turn.turn_number}: ${event.turn.agent_name} (${event.turn.execution_time.toFixed(2)}s) [${elapsed()}]`,
        );
      else if (event.type === 'ensemble_finished')
        line(
          `finished: ${event.result.completion_reason} after ${event.result.turn_count} turns [${elapsed()}]`,
        );
    },
    stop() {},
  };
}

/**
 * Prints a result as JSON, text or rich (`detailed` adds each agent's llm-orc result). The rich
 * renderer (tables, YAML) loads only for `rich`.
 */
export async function printResult(
  result: ConversationResult,
  format: string,
  view?: LlmOrcView,
  detailed = false,
): Promise<void> {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  if (format === 'rich') {
    const { renderRichResult } = await import('./richResult.js');
    const lines = renderRichResult(result, painter(process.stdout), view, detailed);
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }
  const lines = [
    `completion_reason: ${result.completion_reason}`,
    `turn_count: ${result.turn_count}`,
    `run_id: ${result.run_id}`,
  ];
  if (result.error)
    lines.push(`error: ${result.error.agent ?? '(scheduler)'}: ${result.error.message}`);
  if (detailed && view) {
    lines.push('', 'results:');
    for (const [agent, item] of Object.entries(view.results)) {
      const body = item.status === 'failed' ? `error: ${item.error}` : (item.response ?? '');
      lines.push(`  ${agent} [${item.status}]:`, ...body.split('\n').map((line) => `    ${line}`));
    }
  }
  lines.push('', 'final_state:', JSON.stringify(result.final_state, null, 2));
  process.stdout.write(`${lines.join('\n')}\n`);
}
