/**
 * How a store's threads show which of them hold ensemble runs, read without knowing the saved
 * format: a run's main thread carries its state in its metadata (see `workflowThread.ts`).
 * Servers and tools list runs with these, so only this folder knows the storage format.
 * @module
 */
import type { ThreadRecord } from '../stores/types.js';

/** The `kind` of a run's main-thread metadata. */
export const RUN_THREAD_KIND = 'workflow';

/** Whether a thread's metadata is that of an ensemble run's main thread. */
export function isRunThread(metadata: Readonly<Record<string, unknown>>): boolean {
  return metadata.kind === RUN_THREAD_KIND;
}

/** One saved run, as a listing shows it. */
export interface SavedRunSummary {
  runId: string;
  ensemble: string;
  /** `interrupted`: stopped before finishing (resumable). */
  status: 'finished' | 'interrupted';
  turnCount: number;
  completionReason?: string;
  updatedAt: string;
}

/** The saved run a thread holds, or undefined when it is not a run's main thread. */
export function savedRunOf(record: ThreadRecord): SavedRunSummary | undefined {
  if (!isRunThread(record.metadata) || record.chatId === null) return undefined;
  // Read leniently (any saved version): a listing must not fail on one odd run.
  const workflow = record.metadata.workflow as
    { data?: Record<string, unknown>; conversation?: { turn_count?: number } } | undefined;
  const data = workflow?.data ?? {};
  const result = data.result as { completion_reason?: string } | undefined;
  return {
    runId: record.chatId,
    ensemble: String(data.ensemble ?? ''),
    status: data.status === 'finished' ? 'finished' : 'interrupted',
    turnCount: workflow?.conversation?.turn_count ?? 0,
    ...(result?.completion_reason ? { completionReason: result.completion_reason } : {}),
    updatedAt: record.updatedAt,
  };
}

/** The saved runs among a store's threads, newest first. */
export function savedRuns(records: readonly ThreadRecord[]): SavedRunSummary[] {
  return records
    .flatMap((record) => savedRunOf(record) ?? [])
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}
