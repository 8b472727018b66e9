/**
 * The schedules of an app built without any (`createApp` alone): every route answers that
 * schedules need a scheduler, and how to get one.
 * @module
 */
import { HttpError } from '../errors.js';
import type { Schedules } from './types.js';

function off(): never {
  throw new HttpError(
    404,
    'ROUTE_NOT_FOUND',
    'This server runs no schedules. Start it with colloquy serve (or startServer), which runs them in-process or on the queue, or pass createApp({ schedules }).',
  );
}

/** Schedules that are not there (see the module comment). */
export const noSchedules: Schedules = {
  kind: 'in-process',
  add: async () => off(),
  list: async () => off(),
  get: async () => off(),
  remove: async () => off(),
  start: async () => undefined,
  close: async () => undefined,
};
