/**
 * `queueAgency`: an agency's calls, sent through the queue to whichever worker is free, for
 * programs that embed Colloquy (the server's `--queue` mode does the same over HTTP).
 * @module
 */
import type { GetResponseOptions, ResumeOptions } from '../agency/agency.js';
import type { AgencyStreamEvent } from '../agency/events.js';
import type { AgencyResponse } from '../agency/result.js';
import { QueueClient, type QueueClientOptions } from './client.js';
import { awaitCall, callData, resumeData, streamCall } from './queuedExecutor.js';

/** Options of {@link queueAgency}. */
export interface QueueAgencyOptions extends QueueClientOptions {
  /** The name the agency is served under by the workers. */
  agency: string;
  /** A client to share between several queued agencies (default: a new one, closed by `close`). */
  client?: QueueClient;
}

/** An agency whose calls run on workers. */
export interface QueuedAgency {
  readonly name: string;
  /** Like `Agency.getResponse`. */
  getResponse(message: string, options?: GetResponseOptions): Promise<AgencyResponse>;
  /** Like `Agency.getResponseStream`, with events relayed from the worker that runs the call. */
  getResponseStream(
    message: string,
    options?: GetResponseOptions,
  ): AsyncIterable<AgencyStreamEvent>;
  /** Like `Agency.resume`: any worker continues a call stopped for approvals. */
  resume(state: string, options?: Omit<ResumeOptions, 'maxTurns'>): Promise<AgencyResponse>;
  /** Cancels the calls of a chat queued or running on any worker; resolves with how many. */
  cancel(chatId: string, reason?: string): Promise<number>;
  /** Closes the client (if this object made it). */
  close(): Promise<void>;
}

/**
 * Sends an agency's calls through the queue.
 *
 * @example
 * ```ts
 * const support = queueAgency({ queue: 'redis://127.0.0.1:6379', agency: 'support' });
 * const { finalOutput, chatId } = await support.getResponse('My order is late');
 * for await (const event of support.getResponseStream('And now?', { chatId })) console.log(event.type);
 * await support.close();
 * ```
 */
export function queueAgency(options: QueueAgencyOptions): QueuedAgency {
  const client = options.client ?? new QueueClient(options);
  const name = options.agency;
  return {
    name,
    getResponse: (message, callOptions = {}) =>
      awaitCall(client, callData(name, message, callOptions, false), callOptions.signal),
    getResponseStream: (message, callOptions = {}) =>
      streamCall(client, callData(name, message, callOptions, true), callOptions.signal),
    resume: (state, resumeOptions = {}) =>
      awaitCall(client, resumeData(name, state, resumeOptions), resumeOptions.signal),
    cancel: (chatId, reason) => client.cancelChat(name, chatId, reason),
    close: async () => {
      if (!options.client) await client.close();
    },
  };
}
