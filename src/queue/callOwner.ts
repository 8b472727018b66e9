/**
 * Ownership on workers: before a call job runs, the worker checks in the shared store that the
 * user the job names (the signed-in user of the server that queued it) owns the chat. A job that
 * names another user's chat, or names no user for a chat that has an owner, was not queued by a
 * Colloquy server checking ownership (it was forged, or written by hand): it is refused, logged,
 * and answered with the 404 the HTTP API gives for another user's chat.
 * @module
 */
import type { Job } from 'bullmq';
import { ColloquyError, errorInfo, type ErrorInfo } from '../errors.js';
import { getDefaultLogger } from '../logger.js';
import { defaultRuntime, defineRuntimeSlot } from '../runtime.js';
import { OwnerRecords } from '../server/ownership/owners.js';
import type { CallOutcome } from './client.js';
import type { CallJobData } from './jobs.js';
import { publish, type JobContext } from './worker.js';

/** A runtime's owner records, weakly keyed by the store (each keeps a cache of owners). */
const RECORDS = defineRuntimeSlot('queue.ownerRecords', () => new WeakMap<object, OwnerRecords>());

function ownersOf(context: JobContext): OwnerRecords {
  const store = context.registry.runs.store;
  const recordsByStore = defaultRuntime().use(RECORDS);
  let owners = recordsByStore.get(store);
  if (!owners) recordsByStore.set(store, (owners = new OwnerRecords(store)));
  return owners;
}

/** Why the job may not run, or `null` when it may. */
async function refusal(owners: OwnerRecords, data: CallJobData): Promise<string | null> {
  if (data.owner?.admin) return null;
  const owner = await owners.ownerOf('chat', data.chatId);
  if (owner === null && data.owner === undefined) return null; // no users: API-key mode
  if (data.owner === undefined) return `it names no user, and chat "${data.chatId}" has an owner`;
  if (owner === null)
    return `chat "${data.chatId}" has no owner record for user "${data.owner.userId}"`;
  if (owner !== data.owner.userId)
    return `user "${data.owner.userId}" does not own chat "${data.chatId}"`;
  return null;
}

/**
 * Checks a call job's owner (see the module comment): resolves with `null` when it may run, else
 * with the outcome to store for it, after publishing that outcome to whoever waits on the call.
 */
export async function refuseForeignCall(
  job: Job<CallJobData>,
  context: JobContext,
): Promise<CallOutcome | null> {
  const data = job.data;
  const why = await refusal(ownersOf(context), data);
  if (why === null) return null;
  getDefaultLogger().error(
    {
      component: 'worker',
      job: job.id,
      callId: data.callId,
      agency: data.agency,
      chatId: data.chatId,
      user: data.owner?.userId ?? null,
    },
    `Refused queued call ${data.callId}: ${why}. Only a Colloquy server that checked ownership queues calls; check who can write to the queue's Redis.`,
  );
  const error: ErrorInfo = errorInfo(
    new ColloquyError(
      'CHAT_NOT_FOUND',
      `Chat "${data.chatId}" not found. Check the chat id, or run a message in it first.`,
    ),
  );
  const channel = data.replyTo ?? context.keys.callEvents(data.callId);
  const attempt = job.stalledCounter + 1;
  await publish(context.redis, channel, {
    callId: data.callId,
    attempt,
    event: { type: 'error', error },
  });
  return { ok: false, error };
}
