/**
 * An agency call's events as AG-UI events: the entry point's text as `TEXT_MESSAGE_*`, its tool
 * calls as `TOOL_CALL_*`, and every agent run (the entry point's and each `send_message`
 * delegation) as a step named `"<caller> → <agent>"` (`user` for the entry point).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { EventType, type BaseEvent } from '@ag-ui/core';
import type { AgencyStreamEvent } from '../../agency/events.js';

/** The text of a tool output item (text parts joined; other values as JSON). */
export function toolOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const text = (output as { text?: unknown } | null)?.text;
  if (typeof text === 'string') return text;
  if (Array.isArray(output)) return output.map(toolOutputText).join('');
  return JSON.stringify(output ?? null);
}

/** Turns agency events into AG-UI events, one call at a time (it keeps the open message and steps). */
export class AgUiTranslator {
  #messageId: string | undefined;
  #streamedText = false;
  readonly #steps = new Map<string, string>();
  readonly #toolCalls = new Set<string>();

  /** The AG-UI events for one agency event (run_completed and error are left to the caller). */
  translate(event: AgencyStreamEvent): BaseEvent[] {
    switch (event.type) {
      case 'agent_run_started':
        return [this.#startStep(event.runId, `${event.callerAgent ?? 'user'} → ${event.agent}`)];
      case 'agent_run_completed':
      case 'agent_run_failed':
      case 'agent_run_interrupted': {
        const out = event.depth === 0 ? this.closeText() : [];
        const name = this.#steps.get(event.runId);
        if (name === undefined) return out;
        this.#steps.delete(event.runId);
        return [...out, { type: EventType.STEP_FINISHED, stepName: name } as BaseEvent];
      }
      case 'raw_model_stream_event':
        if (event.depth !== 0) return [];
        if (event.data.type === 'output_text_delta' && event.data.delta !== '') {
          return [...this.#openText(), this.#content(event.data.delta)];
        }
        return event.data.type === 'response_done' ? this.closeText() : [];
      case 'run_item_stream_event':
        return event.depth === 0 ? this.#item(event.item) : [];
      default:
        return [];
    }
  }

  /** Tool call events for a call that no event reported (a client tool the run stopped on). */
  toolCall(callId: string, name: string, args: string): BaseEvent[] {
    if (this.#toolCalls.has(callId)) return [];
    this.#toolCalls.add(callId);
    return [
      ...this.closeText(),
      { type: EventType.TOOL_CALL_START, toolCallId: callId, toolCallName: name } as BaseEvent,
      { type: EventType.TOOL_CALL_ARGS, toolCallId: callId, delta: args } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId: callId } as BaseEvent,
    ];
  }

  /** The final answer as one message, when the entry point streamed no text. */
  finalText(text: string): BaseEvent[] {
    if (this.#streamedText || text === '') return this.closeText();
    return [...this.#openText(), this.#content(text), ...this.closeText()];
  }

  /** Ends the open text message, if any. */
  closeText(): BaseEvent[] {
    if (this.#messageId === undefined) return [];
    const messageId = this.#messageId;
    this.#messageId = undefined;
    return [{ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent];
  }

  /** Finishes the steps still open (a call that stopped or failed). */
  closeSteps(): BaseEvent[] {
    const names = [...this.#steps.values()].reverse();
    this.#steps.clear();
    return names.map((stepName) => ({ type: EventType.STEP_FINISHED, stepName }) as BaseEvent);
  }

  #startStep(runId: string, base: string): BaseEvent {
    const open = new Set(this.#steps.values());
    let name = base;
    for (let n = 2; open.has(name); n++) name = `${base} (${n})`;
    this.#steps.set(runId, name);
    return { type: EventType.STEP_STARTED, stepName: name } as BaseEvent;
  }

  #openText(): BaseEvent[] {
    if (this.#messageId !== undefined) return [];
    this.#messageId = `msg_${randomUUID()}`;
    this.#streamedText = true;
    return [
      { type: EventType.TEXT_MESSAGE_START, messageId: this.#messageId, role: 'assistant' },
    ] as BaseEvent[];
  }

  #content(delta: string): BaseEvent {
    return {
      type: EventType.TEXT_MESSAGE_CONTENT,
      messageId: this.#messageId!,
      delta,
    } as BaseEvent;
  }

  #item(item: unknown): BaseEvent[] {
    const raw = item as {
      type?: string;
      callId?: string;
      name?: string;
      arguments?: string;
      output?: unknown;
    };
    if (raw.type === 'function_call' && raw.callId) {
      return this.toolCall(raw.callId, raw.name ?? 'tool', raw.arguments ?? '');
    }
    if (raw.type === 'function_call_result' && raw.callId) {
      return [
        {
          type: EventType.TOOL_CALL_RESULT,
          messageId: `tool_${raw.callId}`,
          toolCallId: raw.callId,
          content: toolOutputText(raw.output),
          role: 'tool',
        } as BaseEvent,
      ];
    }
    return [];
  }
}
