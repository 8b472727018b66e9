/**
 * One trace per agency call (or ensemble run): {@link traceCall} opens it with the chat id, run
 * id and agency name as metadata, binds it to the thread store's trace store, and runs the work
 * inside it. Inside an existing trace (an agency called from a tool) it adds nothing.
 * @module
 */
import { getCurrentTrace, getGlobalTraceProvider, withTrace } from '@openai/agents-core';
import { traceStoreFor } from '../stores/traceStores.js';
import type { ThreadStore } from '../stores/types.js';
import { getTraceRecorder } from './setup.js';

/** What {@link traceCall} records about a call. */
export interface TraceCallOptions {
  /** The trace's name, e.g. `agency support`. */
  name: string;
  chatId?: string;
  runId?: string;
  agency?: string;
  /** Save the trace with this thread store's trace store. */
  store?: ThreadStore;
  /** Save and export the trace (default true; `tracing: false` on an agency). */
  enabled?: boolean;
  /** Keep message and tool text (default: the recorder's setting). */
  content?: boolean;
}

/**
 * Runs `work` inside a new trace, unless a trace is already open.
 *
 * @example
 * ```ts
 * await traceCall({ name: 'agency support', chatId, runId, store }, () => runTurn(...));
 * ```
 */
export async function traceCall<T>(options: TraceCallOptions, work: () => Promise<T>): Promise<T> {
  if (getCurrentTrace()) return work();
  const recorder = getTraceRecorder();
  const enabled = options.enabled ?? true;
  const metadata: Record<string, unknown> = {
    ...(options.chatId ? { chatId: options.chatId } : {}),
    ...(options.runId ? { runId: options.runId } : {}),
    ...(options.agency ? { agency: options.agency } : {}),
    ...(enabled ? {} : { 'colloquy.export': false }),
  };
  const trace = getGlobalTraceProvider().createTrace({
    name: options.name,
    ...(options.chatId ? { groupId: options.chatId } : {}),
    metadata,
  });
  const store = options.store && enabled ? await traceStoreFor(options.store) : undefined;
  recorder.bind(trace.traceId, {
    ...(store ? { store } : {}),
    export: enabled,
    ...(options.content === undefined ? {} : { content: options.content }),
  });
  // The SDK ends a trace only when its function resolves: a failed call is caught inside so that
  // its trace (with the failed spans) is still ended, saved and exported, then rethrown.
  const outcome = await withTrace(trace, async () => {
    try {
      return { value: await work() };
    } catch (error) {
      return { error };
    }
  });
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
