/**
 * `colloquy/queue`: scale out on BullMQ (Redis): servers queue agency calls and ensemble runs,
 * workers run them (loads `bullmq` and `ioredis` only when imported). See docs/scale-out.md.
 * @module
 */
export { createWorker } from './queue/worker.js';
export type { CreateWorkerOptions, QueueWorker } from './queue/worker.js';
export { queueAgency } from './queue/queueAgency.js';
export type { QueueAgencyOptions, QueuedAgency } from './queue/queueAgency.js';
export { queuedExecutor } from './queue/queuedExecutor.js';
export { QueueClient } from './queue/client.js';
export type { QueueClientOptions } from './queue/client.js';
export { QueueUnavailableError, queueConnection } from './queue/connection.js';
export type { QueueConnection, QueueConnectionOptions, QueueKeys } from './queue/connection.js';
export type { CallJobData } from './queue/jobs.js';
export { QueueSchedules } from './queue/schedules.js';
export { SCHEDULE_TICK_JOB } from './queue/scheduleKeys.js';
