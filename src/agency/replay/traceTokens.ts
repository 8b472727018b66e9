/**
 * The tokens of each model call of a turn, read from the turn's stored trace (its generation
 * spans, each under the agent span of the agent that made it), and given to the recordings that
 * stand for those calls. Without a trace the tokens stay unknown.
 * @module
 */
import type { SpanRecord, StoredTrace } from '../../stores/traceStore.js';
import { traceStoreFor } from '../../stores/traceStores.js';
import type { ThreadItem } from '../../stores/item.js';
import type { ThreadStore } from '../../stores/types.js';
import type { RecordedTokens, Recording } from './recordings.js';

/** The stored trace of one agency call (its root run), or null when none was kept. */
export async function traceOfRun(
  store: ThreadStore,
  chatId: string,
  runId: string,
): Promise<StoredTrace | null> {
  const traces = await traceStoreFor(store);
  const [summary] = await traces.listTraces({ chatId, runId, limit: 1 });
  return summary ? traces.getTrace(summary.traceId) : null;
}

/** Each agent's model calls in a trace, in the order they started, with their tokens. */
export function tokensByAgent(trace: StoredTrace): Map<string, RecordedTokens[]> {
  const byId = new Map(trace.spans.map((span) => [span.spanId, span]));
  const agentOf = (span: SpanRecord): string | undefined => {
    for (let at: SpanRecord | undefined = span; at; at = byId.get(at.parentId ?? '')) {
      if (at.kind === 'agent') return String(at.attributes.agent ?? at.name);
    }
    return undefined;
  };
  const calls = new Map<string, RecordedTokens[]>();
  const generations = trace.spans
    .filter((span) => span.kind === 'generation')
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  for (const span of generations) {
    const agent = agentOf(span);
    if (!agent) continue;
    const list = calls.get(agent) ?? [];
    list.push({
      inputTokens: Number(span.attributes.inputTokens ?? 0),
      outputTokens: Number(span.attributes.outputTokens ?? 0),
    });
    calls.set(agent, list);
  }
  return calls;
}

/**
 * Gives each recording the tokens of the call it stands for: an agent's recordings in the order
 * they happened, matched one to one with its generation spans (only when the counts agree).
 */
export function assignTokens(
  recordings: readonly Recording[],
  calls: ReadonlyMap<string, RecordedTokens[]>,
  threads: ReadonlyMap<string, readonly ThreadItem[]>,
): void {
  const when = (recording: Recording): string =>
    threads.get(recording.threadId)?.[recording.position]?.meta?.createdAt ?? '';
  const agents = new Set(recordings.map((recording) => recording.agent));
  for (const agent of agents) {
    const own = recordings
      .filter((recording) => recording.agent === agent)
      .sort((a, b) => when(a).localeCompare(when(b)) || a.position - b.position);
    const tokens = calls.get(agent) ?? [];
    if (tokens.length !== own.length) continue;
    own.forEach((recording, i) => (recording.tokens = tokens[i]));
  }
}

/** The tokens of a trace summed per agent. */
export function sumByAgent(
  calls: ReadonlyMap<string, RecordedTokens[]>,
): Map<string, RecordedTokens> {
  const sums = new Map<string, RecordedTokens>();
  for (const [agent, list] of calls) {
    sums.set(
      agent,
      list.reduce(
        (sum, call) => ({
          inputTokens: sum.inputTokens + call.inputTokens,
          outputTokens: sum.outputTokens + call.outputTokens,
        }),
        { inputTokens: 0, outputTokens: 0 },
      ),
    );
  }
  return sums;
}
