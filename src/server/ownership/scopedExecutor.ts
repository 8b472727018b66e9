/**
 * An executor that records owners as work starts: a call's chat is claimed by the signed-in user
 * before it runs (so a chat the server names is owned from its first item), and an ensemble run
 * is claimed once started. The ownership middleware checks; this records what it cannot see yet.
 * @module
 */
import { currentPrincipal } from '../auth/principal.js';
import type { Executor } from '../executor.js';
import type { OwnerRecords } from './owners.js';
import { callUser } from './callUser.js';
import { chatNotFound } from './scope.js';

async function claimChat(owners: OwnerRecords, chatId: string | undefined): Promise<void> {
  const principal = currentPrincipal();
  if (!principal || chatId === undefined) return;
  const owner = await owners.claim('chat', chatId, principal.userId);
  if (owner !== principal.userId && !principal.admin) throw chatNotFound(chatId);
}

/** `executor` with owners recorded for the current user (see `currentPrincipal`). */
export function scopedExecutor(executor: Executor, owners: OwnerRecords): Executor {
  const { calls, runs } = executor;
  return {
    calls: {
      getResponse: async (agency, message, options) => {
        const scoped = callUser(options);
        await claimChat(owners, options.chatId);
        return calls.getResponse(agency, message, scoped);
      },
      async *getResponseStream(agency, message, options) {
        const scoped = callUser(options);
        await claimChat(owners, options.chatId);
        yield* calls.getResponseStream(agency, message, scoped);
      },
      resume: (agency, state, options) => calls.resume(agency, state, options),
      cancel: (agency, chatId, reason) => calls.cancel(agency, chatId, reason),
    },
    runs: {
      start: async (name, options) => {
        const summary = await runs.start(name, options);
        const principal = currentPrincipal();
        if (principal) await owners.claim('run', summary.runId, principal.userId);
        return summary;
      },
      resume: (runId, options) => runs.resume(runId, options),
      state: (runId) => runs.state(runId),
      follow: (runId, after, signal) => runs.follow(runId, after, signal),
      cancel: (runId, reason) => runs.cancel(runId, reason),
      close: (graceMs) => runs.close(graceMs),
    },
    close: (graceMs) => executor.close(graceMs),
  };
}
