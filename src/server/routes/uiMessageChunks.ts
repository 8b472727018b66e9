/**
 * An agency call's events as AI SDK UI message stream chunks (the protocol of `ai` v6's
 * `useChat`/`DefaultChatTransport`): the entry point's text and reasoning, its tool calls as
 * dynamic tool parts, and every nested agent run as a `data-agent-run` part (updated in place
 * by its run id as it starts and finishes).
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { AgencyStreamEvent } from '../../agency/events.js';
import { toolOutputText } from './agUiEvents.js';

/** One UI message stream chunk (`{ type, ...fields }`). */
export type UiChunk = { type: string } & Record<string, unknown>;

function parseInput(args: string): unknown {
  try {
    return JSON.parse(args === '' ? '{}' : args);
  } catch {
    // Arguments that are not JSON: sent as the text.
    return args;
  }
}

/** Turns agency events into UI message chunks, one call at a time. */
export class UiChunkTranslator {
  #textId: string | undefined;
  #reasoningId: string | undefined;
  #streamedText = false;
  /** The entry point got a tool result: what it says next is a new step (a new model turn). */
  #turnEnded = false;
  readonly #toolCalls = new Set<string>();

  translate(event: AgencyStreamEvent): UiChunk[] {
    switch (event.type) {
      case 'agent_run_started':
        if (event.depth === 0) return [];
        return [this.#run(event, 'running', { message: event.message })];
      case 'agent_run_completed':
        if (event.depth === 0) return this.closeText();
        return [this.#run(event, 'completed', { output: event.finalOutput })];
      case 'agent_run_failed':
        if (event.depth === 0) return this.closeText();
        return [this.#run(event, 'failed', { error: event.error.message })];
      case 'agent_run_interrupted':
        return event.depth === 0 ? this.closeText() : [this.#run(event, 'waiting', {})];
      case 'raw_model_stream_event':
        return event.depth === 0
          ? this.#raw(event.data as { type: string } & Record<string, unknown>)
          : [];
      case 'run_item_stream_event':
        return event.depth === 0 ? this.#item(event.item) : [];
      default:
        return [];
    }
  }

  /** A tool call no event reported (a client tool, or a nested tool waiting for approval). */
  toolCall(callId: string, name: string, args: string): UiChunk[] {
    if (this.#toolCalls.has(callId)) return [];
    this.#toolCalls.add(callId);
    return [
      ...this.#nextTurn(),
      ...this.closeText(),
      { type: 'tool-input-start', toolCallId: callId, toolName: name, dynamic: true },
      {
        type: 'tool-input-available',
        toolCallId: callId,
        toolName: name,
        input: parseInput(args),
        dynamic: true,
      },
    ];
  }

  /** The final answer as one text part, when the entry point streamed none. */
  finalText(text: string): UiChunk[] {
    if (this.#streamedText || text === '') return this.closeText();
    const id = `text_${randomUUID()}`;
    return [
      ...this.#nextTurn(),
      { type: 'text-start', id },
      { type: 'text-delta', id, delta: text },
      { type: 'text-end', id },
    ];
  }

  /**
   * Ends the current step and starts another: the tool calls a stopped call waits on go in a step
   * of their own, so `useChat`'s `lastAssistantMessageIsCompleteWith…` helpers see only them (not
   * the entry point's `send_message` that waits on a nested approval).
   */
  newStep(): UiChunk[] {
    this.#turnEnded = false;
    return [...this.closeText(), { type: 'finish-step' }, { type: 'start-step' }];
  }

  #nextTurn(): UiChunk[] {
    return this.#turnEnded ? this.newStep() : [];
  }

  /** Ends the open text and reasoning parts. */
  closeText(): UiChunk[] {
    const out: UiChunk[] = [];
    if (this.#reasoningId) out.push({ type: 'reasoning-end', id: this.#reasoningId });
    if (this.#textId) out.push({ type: 'text-end', id: this.#textId });
    this.#reasoningId = undefined;
    this.#textId = undefined;
    return out;
  }

  #run(
    event: { runId: string; agent: string; callerAgent: string | null; depth: number },
    status: string,
    extra: Record<string, unknown>,
  ): UiChunk {
    return {
      type: 'data-agent-run',
      id: event.runId,
      data: {
        agent: event.agent,
        caller: event.callerAgent ?? 'user',
        depth: event.depth,
        status,
        ...extra,
      },
    };
  }

  #raw(data: { type: string } & Record<string, unknown>): UiChunk[] {
    if (data.type === 'output_text_delta' && typeof data.delta === 'string' && data.delta !== '') {
      const open: UiChunk[] = [];
      if (!this.#textId) {
        open.push(...this.#nextTurn());
        this.#textId = `text_${randomUUID()}`;
        this.#streamedText = true;
        open.push({ type: 'text-start', id: this.#textId });
      }
      return [...open, { type: 'text-delta', id: this.#textId, delta: data.delta }];
    }
    const inner =
      data.type === 'model' ? (data.event as Record<string, unknown> | undefined) : undefined;
    const kind = typeof inner?.type === 'string' ? inner.type : '';
    if (/reasoning.*\.delta$/.test(kind) && typeof inner?.delta === 'string') {
      const open: UiChunk[] = [];
      if (!this.#reasoningId) {
        open.push(...this.#nextTurn());
        this.#reasoningId = `reasoning_${randomUUID()}`;
        open.push({ type: 'reasoning-start', id: this.#reasoningId });
      }
      return [...open, { type: 'reasoning-delta', id: this.#reasoningId, delta: inner.delta }];
    }
    return data.type === 'response_done' ? this.closeText() : [];
  }

  #item(item: unknown): UiChunk[] {
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
      this.#turnEnded = true;
      return [
        {
          type: 'tool-output-available',
          toolCallId: raw.callId,
          output: toolOutputText(raw.output),
          dynamic: true,
        },
      ];
    }
    return [];
  }
}
