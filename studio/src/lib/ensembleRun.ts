/**
 * Folds the progress events of an ensemble run (`GET /runs/:id/events`) into what the ensembles
 * view draws: the agents running now, executions per agent, the turn count, the history and the
 * completion reason. Pure, for the view and its tests.
 * @module
 */
import type { ConversationResult, ConversationTurn, EnsembleEvent, ErrorInfo } from './types.js';

/** What the view shows of a run. */
export interface EnsembleRunView {
  runId?: string;
  resumed: boolean;
  step: number;
  running: string[];
  counts: Record<string, number>;
  failed: Record<string, string>;
  turnCount: number;
  history: ConversationTurn[];
  result?: ConversationResult;
  error?: ErrorInfo;
}

/** A run nothing is known of yet. */
export function emptyRun(): EnsembleRunView {
  return {
    resumed: false,
    step: 0,
    running: [],
    counts: {},
    failed: {},
    turnCount: 0,
    history: [],
  };
}

/** Returns the view with one more event applied (the input is not changed). */
export function applyRunEvent(previous: EnsembleRunView, event: EnsembleEvent): EnsembleRunView {
  const view: EnsembleRunView = structuredClone(previous);
  switch (event.type) {
    case 'ensemble_started':
      view.runId = event.run_id;
      view.resumed = event.resumed;
      view.turnCount = event.turn_count;
      break;
    case 'step_started':
      view.step = event.step;
      view.turnCount = event.turn_count;
      break;
    case 'agent_started':
      if (!view.running.includes(event.agent)) view.running.push(event.agent);
      break;
    case 'agent_finished':
      view.running = view.running.filter((name) => name !== event.agent);
      view.counts[event.agent] = (view.counts[event.agent] ?? 0) + 1;
      if (!event.success) view.failed[event.agent] = event.error ?? 'failed';
      break;
    case 'turn_recorded':
      view.history.push(event.turn);
      view.turnCount = event.turn_count;
      break;
    case 'ensemble_finished':
      view.result = event.result;
      view.running = [];
      view.turnCount = event.result.turn_count;
      view.counts = { ...event.result.agent_execution_count };
      view.history = event.result.conversation_history;
      break;
    case 'error':
      view.error = event.error;
      view.running = [];
      break;
  }
  return view;
}
