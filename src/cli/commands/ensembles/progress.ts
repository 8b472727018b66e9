/**
 * Progress of `colloquy invoke` on stderr, and the text/rich rendering of its result.
 * @module
 */
import type { EnsembleEvent } from '../../../ensembles/events.js';
import type { ConversationResult } from '../../../ensembles/result.js';
import type { LlmOrcView } from '../../../ensembles/llmorc/results.js';

/** Prints progress on stderr: one redrawn status line on a TTY, plain lines otherwise. */
export function progressReporter(live: boolean): {
  onEvent: (event: EnsembleEvent) => void;
  stop: () => void;
} {
  const started = Date.now();
  const running = new Set<string>();
  let turns = 0;
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  const draw = () =>
    process.stderr.write(
      `\r\x1b[2K⏵ turn ${turns} · ${elapsed()} · running: ${[...running].join(', ') || '-'}`,
    );
  const timer = live ? setInterval(draw, 100) : undefined;
  const line = (text: string) =>
    live ? process.stderr.write(`\r\x1b[2K${text}\n`) : process.stderr.write(`${text}\n`);
  return {
    onEvent(event) {
      if (event.type === 'ensemble_started')
        line(`run ${event.run_id}${event.resumed ? ` (resumed at turn ${event.turn_count})` : ''}`);
      else if (event.type === 'agent_started') running.add(event.agent);
      else if (event.type === 'agent_finished') {
        running.delete(event.agent);
        if (!event.success) line(`✗ ${event.agent}: ${event.error}`);
      } else if (event.type === 'agent_dispatched')
        line(`→ ${event.agent}: dispatch ${event.reference} → ${event.target}`);
      else if (event.type === 'turn_recorded') {
        turns = event.turn_count;
        line(
          `turn ${event.turn.turn_number}: ${event.turn.agent_name} (${event.turn.execution_time.toFixed(2)}s) [${elapsed()}]`,
        );
      } else if (event.type === 'ensemble_finished')
        line(
          `finished: ${event.result.completion_reason} after ${event.result.turn_count} turns [${elapsed()}]`,
        );
      if (live) draw();
    },
    stop() {
      if (timer) clearInterval(timer);
      if (live) process.stderr.write('\r\x1b[2K');
    },
  };
}

/** Prints a result as text (`detailed` adds each agent's llm-orc result). */
export function printResult(
  result: ConversationResult,
  format: string,
  view?: LlmOrcView,
  detailed = false,
): void {
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const lines = [
    `completion_reason: ${result.completion_reason}`,
    `turn_count: ${result.turn_count}`,
    `run_id: ${result.run_id}`,
  ];
  if (result.error)
    lines.push(`error: ${result.error.agent ?? '(scheduler)'}: ${result.error.message}`);
  if (format === 'rich') {
    lines.push('', 'turn  agent                 time    output');
    for (const turn of result.conversation_history) {
      const output = JSON.stringify(turn.output_data);
      lines.push(
        `${String(turn.turn_number).padEnd(5)} ${turn.agent_name.padEnd(21)} ${turn.execution_time.toFixed(2).padStart(6)}s ${output.length > 80 ? `${output.slice(0, 77)}...` : output}`,
      );
    }
    lines.push('', `usage: ${result.usage.requests} requests, ${result.usage.total_tokens} tokens`);
  }
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
