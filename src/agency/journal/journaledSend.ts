/**
 * Nested send_message calls through the step journal. The recipient's answer is journaled under
 * (sender's run path, send_message call id) when the recipient's turn ends. On a retry the
 * recipient's turn still runs, but every one of its steps replays from the journal (nothing is
 * asked of a model, no tool runs), so the thread between sender and recipient is written as in one
 * run; the sender gets the journaled answer.
 * @module
 */
import type { RunFrame } from '../call.js';
import { journalPath } from './journaledModel.js';

/** The journal side of one send_message call. */
export interface SendStep {
  /** The recipient run's journal path. */
  readonly path: string;
  /** The answer to give the sender: the journaled one when there is one, else `answer` (recorded). */
  settle(answer: string): string | Promise<string>;
}

/** `answer` as it is: a call without a step journal has nothing to record or replay. */
function settleAsIs(answer: string): string {
  return answer;
}

/**
 * The journal step of a send_message from `frame`'s run to `recipient`. `toolCallId` is the
 * send_message call's id (from the model answer, itself journaled, so the same on a retry); a
 * custom send_message tool that passes none gets a per-run counter instead.
 */
export function sendStep(
  frame: RunFrame,
  toolCallId: string | undefined,
  recipient: string,
): SendStep | Promise<SendStep> {
  const parent = journalPath(frame);
  const journal = frame.call.journal;
  const id = toolCallId ?? `send${journal?.next(`${parent}#send`) ?? 0}`;
  const path = `${parent}/${id}>${recipient}`;
  // Without a journal the step is ready at once: no promise for the sender to wait on.
  if (!journal) return { path, settle: settleAsIs };
  return journaledStep(journal, parent, id, path, recipient);
}

async function journaledStep(
  journal: NonNullable<RunFrame['call']['journal']>,
  parent: string,
  id: string,
  path: string,
  recipient: string,
): Promise<SendStep> {
  const base = `${parent}#message:${id}`;
  const key = `${base}#${journal.next(base)}`;
  const found = await journal.lookup(key, (entry) => entry.kind === 'message');
  return {
    path,
    async settle(answer) {
      if (found && found.kind === 'message') return found.answer;
      await journal.record({
        kind: 'message',
        key,
        path: parent,
        recipient,
        toolCallId: id,
        answer,
      });
      return answer;
    },
  };
}
