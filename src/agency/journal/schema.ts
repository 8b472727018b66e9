/**
 * The saved form of step journal entries. Each finished step of an agency call (a model answer,
 * a tool output, a nested send_message answer) is one item of the call's journal thread; the
 * item is the entry itself, checked by {@link parseJournalEntry} when the journal is read back.
 *
 * Changelog of `schemaVersion`:
 * - 1: model, tool and message entries.
 * @module
 */
import { z } from 'zod';
import { ColloquyError } from '../../errors.js';

/** The journal entry format this version writes. */
export const JOURNAL_SCHEMA_VERSION = 1;

/** The `type` every journal item carries (it is no protocol item: journals are never shown to a model). */
export const JOURNAL_ITEM_TYPE = 'colloquy_journal_step';

const usageSchema = z.object({
  requests: z.number().int().nonnegative(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  totalTokens: z.number().nonnegative(),
});

const common = {
  type: z.literal(JOURNAL_ITEM_TYPE),
  schemaVersion: z.literal(JOURNAL_SCHEMA_VERSION),
  /** Where the step sits in the call: its run's path and the step within the run. */
  key: z.string().min(1),
  /** The run path (entry agent, then `/<send_message call id>>Recipient` per nested run). */
  path: z.string().min(1),
  /** ISO-8601 time the step finished. */
  at: z.string(),
};

/** A model call's answer. */
export const modelEntrySchema = z.object({
  ...common,
  kind: z.literal('model'),
  /** sha256 of the request's input items: a retry whose input differs runs the step live. */
  inputHash: z.string(),
  response: z.object({
    output: z.array(z.unknown()),
    usage: usageSchema,
    responseId: z.string().optional(),
  }),
});

/** A function tool's output. */
export const toolEntrySchema = z.object({
  ...common,
  kind: z.literal('tool'),
  tool: z.string(),
  toolCallId: z.string(),
  output: z.unknown(),
});

/** A nested send_message's answer (the recipient's final output, or the error text the sender got). */
export const messageEntrySchema = z.object({
  ...common,
  kind: z.literal('message'),
  recipient: z.string(),
  toolCallId: z.string(),
  answer: z.string(),
});

/** One journal entry, as stored. */
export const journalEntrySchema = z.discriminatedUnion('kind', [
  modelEntrySchema,
  toolEntrySchema,
  messageEntrySchema,
]);

/** One journal entry, as stored. */
export type JournalEntry = z.infer<typeof journalEntrySchema>;
/** A model step's entry. */
export type ModelEntry = z.infer<typeof modelEntrySchema>;
/** A tool step's entry. */
export type ToolEntry = z.infer<typeof toolEntrySchema>;
/** A nested send_message's entry. */
export type MessageEntry = z.infer<typeof messageEntrySchema>;

/**
 * Checks one stored journal item; throws a `STORE_ERROR` naming the thread, the position and the
 * field when it is not an entry this version reads (a newer `schemaVersion` included).
 */
export function parseJournalEntry(
  threadId: string,
  position: number,
  value: unknown,
): JournalEntry {
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > JOURNAL_SCHEMA_VERSION) {
    throw new ColloquyError(
      'STORE_ERROR',
      `Step journal "${threadId}", item ${position}: schemaVersion ${version} is newer than this ` +
        `Colloquy reads (${JOURNAL_SCHEMA_VERSION}). Run the retry on a worker with the same ` +
        'Colloquy version, or delete the journal thread to run the call from the start.',
    );
  }
  const parsed = journalEntrySchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ColloquyError(
    'STORE_ERROR',
    `Step journal "${threadId}", item ${position}: ${issue.path.join('.') || '(entry)'}: ` +
      `${issue.message}. The journal was not written by Colloquy or is damaged; delete the ` +
      'journal thread to run the call from the start.',
  );
}
