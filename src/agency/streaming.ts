/**
 * Streaming: the SDK's stream events (class instances holding agents) as Colloquy's plain events,
 * and a call's events as an async iterable.
 * @module
 */
import { EventEmitter, on } from 'node:events';
import type { AgentInputItem, RunStreamEvent } from '@openai/agents-core';
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
 * consumer that stops reading early aborts the call (through the signal `run` gets). Events wait
 * in the queue of Node's `events.on` until read; the call starts at once, not on the first read.
 */
export function streamCall(
  signal: AbortSignal | undefined,
  run: (signal: AbortSignal, emit: (event: AgencyStreamEvent) => void) => Promise<AgencyResponse>,
): AsyncIterable<AgencyStreamEvent> {
  const controller = new AbortController();
  const combined = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal;
  const emitter = new EventEmitter();
  const events = on(emitter, 'event', { close: ['end'] });
  let finished = false;
  let reading = true;
  // Nothing is emitted once the consumer has left: an 'error' nobody listens to would throw.
  const send = (name: string, value?: unknown) => void (reading && emitter.emit(name, value));
  run(combined, (event) => send('event', event)).then(
    (result) => {
      finished = true;
      send('event', { type: 'run_completed', result });
      send('end');
    },
    (error: unknown) => {
      finished = true;
      send('event', { type: 'error', error: errorInfo(error) });
      send('error', error instanceof Error ? error : new Error(String(error)));
    },
  );
  const iterator: AsyncIterableIterator<AgencyStreamEvent> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      const step = await events.next();
      return step.done
        ? { done: true, value: undefined }
        : { done: false, value: (step.value as [AgencyStreamEvent])[0] };
    },
    async return() {
      reading = false;
      if (!finished) controller.abort(new Error('The stream consumer stopped reading.'));
      await events.return?.();
      return { done: true, value: undefined };
    },
  };
  return iterator;
}
