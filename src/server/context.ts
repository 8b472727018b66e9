/**
 * What every route module gets, and the request schemas they share.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Agency } from '../agency/agency.js';
import { notFound } from './errors.js';
import type { Executor } from './executor.js';
import type { InFlight } from './inflight.js';
import type { OwnerRecords } from './ownership/owners.js';
import type { ServerRegistry } from './registry.js';
import type { ColloquyRuntime } from '../runtime.js';
import type { CallRuns } from './runs/callRuns.js';

/** Shared state of the routes of one app. */
export interface RouteContext {
  registry: ServerRegistry;
  inflight: InFlight;
  /** Where agency calls and ensemble runs run (default: in this process). */
  executor: Executor;
  /** Who owns each chat and run, when users sign in (`createApp({ authenticate })`). */
  owners?: OwnerRecords;
  /** Background calls: `POST /agencies/:name/runs` and every streaming route's call. */
  callRuns: CallRuns;
  /** The app's runtime (`createApp({ runtime })`): where its stopped calls are kept. */
  runtime?: ColloquyRuntime;
}

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** A chat id, run id or checkpoint id given by a client. */
export const idSchema = z
  .string()
  .min(1, 'expected a non-empty id')
  .max(200, 'expected an id of at most 200 characters')
  .refine((id) => !CONTROL_CHARACTER.test(id), 'expected an id without control characters')
  .refine(
    (id) => (id as unknown as { isWellFormed(): boolean }).isWellFormed(),
    'expected well-formed text (the id holds a lone UTF-16 surrogate)',
  );

/** The served agency `name`, or a 404 listing the served ones. */
export function agencyNamed(context: RouteContext, name: string): Agency {
  const agency = context.registry.agencies.get(name);
  if (!agency) {
    throw notFound(
      'AGENCY_NOT_FOUND',
      `Agency "${name}"`,
      [...context.registry.agencies.keys()],
      'Check the name (GET /agencies).',
    );
  }
  return agency;
}

/** A new chat id, made on the server so that it is known before the run starts. */
export function newChatId(): string {
  return `chat_${randomUUID()}`;
}
