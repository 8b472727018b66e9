/**
 * `bullmq` and `ioredis`, optional peer dependencies: imported when a queue module is first
 * loaded, or a `ConfigError` naming `npm install bullmq ioredis` (see optionalPeer.ts).
 * @module
 */
import type * as Bull from 'bullmq';
import type * as IORedis from 'ioredis';
import { importOptionalPeer } from '../optionalPeer.js';

const bullmq = await importOptionalPeer('bullmq', () => import('bullmq'));
const ioredis = await importOptionalPeer('ioredis', () => import('ioredis'));

/** BullMQ's `DelayedError` (thrown to re-queue a job). */
export const DelayedError = bullmq.DelayedError;
/** A BullMQ `DelayedError`. */
export type DelayedError = Bull.DelayedError;
/** BullMQ's `Job` class. */
export const Job = bullmq.Job;
/** A BullMQ job. */
export type Job<D = any, R = any, N extends string = string> = Bull.Job<D, R, N>;
/** BullMQ's `Queue` class. */
export const Queue = bullmq.Queue;
/** A BullMQ queue. */
export type Queue = Bull.Queue;
/** BullMQ's `Worker` class. */
export const Worker = bullmq.Worker;
/** A BullMQ worker. */
export type Worker = Bull.Worker;
export type { JobsOptions } from 'bullmq';

/** ioredis's `Redis` client class. */
export const Redis = ioredis.Redis;
/** An ioredis client. */
export type Redis = IORedis.Redis;
export type { ChainableCommander, RedisOptions } from 'ioredis';
