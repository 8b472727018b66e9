/**
 * The executor of a server started with `--queue`: agency calls and ensemble runs go to the
 * BullMQ queue and run on workers; the server only relays their events. The HTTP API is the same.
 * @module
 */
import type { AgencyInput } from '../agency/input.js';
import type { GetResponseOptions, ResumeOptions } from '../agency/agency.js';
import { parsePendingCall } from '../agency/approvals.js';
import { serialisableCallOptions } from '../agency/callOptions.js';
import type { AgencyStreamEvent } from '../agency/events.js';
import type { AgencyResponse } from '../agency/result.js';
import { notFoundError } from '../errors.js';
import type { CallExecutor, Executor } from '../server/executor.js';
import type { ServerRegistry } from '../server/registry.js';
import { newChatId } from '../server/context.js';
import { QueueClient, type QueueClientOptions } from './client.js';
import { QueueUnavailableError } from './connection.js';
import { remoteError, type CallJobData } from './jobs.js';
import { QueuedRuns } from './queuedRuns.js';
import { RedisCallRunLog } from './callRunLog.js';
import { currentPrincipal } from '../server/auth/principal.js';

/** The job data of a call from its options: the serialisable ones, as they are. */
export function callData(
  agency: string,
  message: AgencyInput,
  options: GetResponseOptions,
  stream: boolean,
): Omit<CallJobData, 'callId'> {
  const chatId = options.chatId ?? newChatId();
  const principal = currentPrincipal(); // the signed-in user: workers check they own the chat
  return {
    agency,
    chatId,
    message,
    stream,
    options: { ...serialisableCallOptions(options), chatId },
    ...(options.clientTools?.length ? { clientTools: options.clientTools } : {}),
    ...(principal ? { owner: { userId: principal.userId, admin: principal.admin } } : {}),
  };
}

/** The job data that resumes a call stopped for approvals (on any worker). */
export function resumeData(
  agency: string,
  state: string,
  options: Omit<ResumeOptions, 'signal'>,
): Omit<CallJobData, 'callId'> {
  const { chatId } = parsePendingCall(state);
  const { approve, reject, toolOutputs, ...rest } = options;
  return {
    ...callData(agency, '', { ...rest, chatId }, false),
    resume: {
      state,
      ...(approve !== undefined ? { approve } : {}),
      ...(reject !== undefined ? { reject } : {}),
      ...(toolOutputs !== undefined ? { toolOutputs } : {}),
    },
  };
}

/**
 * Streams a queued call like `Agency.getResponseStream`: the last event is `run_completed`, or
 * `error` after which the iterator throws that error.
 */
export async function* streamCall(
  client: QueueClient,
  data: Omit<CallJobData, 'callId'>,
  signal?: AbortSignal,
): AsyncGenerator<AgencyStreamEvent> {
  for await (const event of client.call(data, signal)) {
    yield event;
    if (event.type === 'error') throw remoteError(event.error);
  }
}

/** Resolves with a queued call's response, or throws its error. */
export async function awaitCall(
  client: QueueClient,
  data: Omit<CallJobData, 'callId'>,
  signal?: AbortSignal,
): Promise<AgencyResponse> {
  for await (const event of streamCall(client, data, signal)) {
    if (event.type === 'run_completed') return event.result;
  }
  throw new QueueUnavailableError(
    `The queued call to agency "${data.agency}" ended without a result. Send the message again.`,
  );
}

/**
 * Builds the queued executor of a server: `registry` says which agencies and ensembles exist (for
 * 404s and listings); the work runs on workers started with the same configuration.
 *
 * @example
 * ```ts
 * const registry = await loadRegistry({ store });
 * const executor = queuedExecutor(registry, { queue: 'redis://127.0.0.1:6379' });
 * const server = await startServer({ registry, executor });
 * ```
 */
export function queuedExecutor(
  registry: ServerRegistry,
  options: QueueClientOptions = {},
): Executor & { readonly client: QueueClient } {
  const client = new QueueClient(options);
  const known = (agency: string) => {
    if (!registry.agencies.has(agency)) {
      throw notFoundError(
        'AGENCY_NOT_FOUND',
        `Agency "${agency}"`,
        [...registry.agencies.keys()],
        'Check the name (GET /agencies).',
      );
    }
  };
  const calls: CallExecutor = {
    async getResponse(agency, message, callOptions) {
      known(agency);
      // A QueueUnavailableError is a 503 QUEUE_UNAVAILABLE (server/errors.ts maps codes).
      return awaitCall(client, callData(agency, message, callOptions, false), callOptions.signal);
    },
    getResponseStream(agency, message, callOptions) {
      known(agency);
      return streamCall(client, callData(agency, message, callOptions, true), callOptions.signal);
    },
    async resume(agency, state, resumeOptions) {
      known(agency);
      return awaitCall(client, resumeData(agency, state, resumeOptions), resumeOptions.signal);
    },
    async cancel(agency, chatId, reason) {
      known(agency);
      return client.cancelChat(agency, chatId, reason);
    },
  };
  return {
    client,
    calls,
    runs: new QueuedRuns(client, registry.ensembles, registry.runs.store),
    callRunLog: new RedisCallRunLog(client), // background calls, seen by every server
    close: () => client.close(),
  };
}
