/**
 * Turns the SDK's stream events (class instances holding agents) into Colloquy's plain events.
 * @module
 */
import type { AgentInputItem, RunStreamEvent } from '@openai/agents-core';
import type { AgencyStreamEvent, RunTag } from './events.js';

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
