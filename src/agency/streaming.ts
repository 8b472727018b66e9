/**
 * Streaming: the SDK's stream events (class instances holding agents) as Colloquy's plain events,
 * and a call's events as an async iterable.
 * @module
 */
import type { AgentInputItem, RunStreamEvent } from '@openai/agents-core';
import { pushable } from 'it-pushable';
import { errorInfo } from '../errors.js';
import type { AgencyStreamEvent, RunTag } from './events.js';
import type { AgencyResponse } from './result.js';

/** The plain, tagged form of one SDK stream event. */
export function toAgencyEvent(event: RunStreamEvent, tag: RunTag): AgencyStreamEvent {
  switch (event.type) {
    case 'raw_model_stream_event':
      return { type: 'raw_model_stream_event', ...tag, data: event.data };
    case 'run_item_stream_event':
      return {
        type: 'run_item_stream_event',
        ...tag,
        name: event.name,
        item: event.item.rawItem as AgentInputItem,
      };
    case 'agent_updated_stream_event':
      return { type: 'agent_updated_stream_event', ...tag, newAgent: event.agent.name };
  }
}

/**
 * Runs a call that emits events and returns them as an async iterable: its events, then
 * `run_completed` with the result, or `error`, after which the iterator throws that error. A
 * consumer that stops reading early aborts the call (through the signal `run` gets).
 */
export function streamCall(
  signal: AbortSignal | undefined,
  run: (signal: AbortSignal, emit: (event: AgencyStreamEvent) => void) => Promise<AgencyResponse>,
): AsyncIterable<AgencyStreamEvent> {
  const controller = new AbortController();
  const combined = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
  let finished = false;
  const channel = pushable<AgencyStreamEvent>({
    objectMode: true,
    onEnd: () => {
      if (!finished) controller.abort(new Error('The stream consumer stopped reading.'));
    },
  });
  run(combined, (event) => channel.push(event)).then(
    (result) => {
      finished = true;
      channel.push({ type: 'run_completed', result });
      channel.end();
    },
    (error: unknown) => {
      finished = true;
      channel.push({ type: 'error', error: errorInfo(error) });
      channel.end(error instanceof Error ? error : new Error(String(error)));
    },
  );
  return channel;
}
