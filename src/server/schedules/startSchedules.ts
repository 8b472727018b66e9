/**
 * How `startServer` starts its schedules: in this process unless it was given others (the
 * queue's), with the `schedules:` of colloquy.yaml checked against what the server offers first,
 * so a bad one stops the server with the file and field named.
 * @module
 */
import path from 'node:path';
import { ConfigError } from '../../errors.js';
import type { ScheduleSpec } from '../../schedules/spec.js';
import type { Executor } from '../executor.js';
import type { OwnerRecords } from '../ownership/owners.js';
import type { ServerRegistry } from '../registry.js';
import { checkSchedule } from './check.js';
import { LocalSchedules } from './localSchedules.js';
import type { Schedules } from './types.js';

/** Options of {@link startSchedules}. */
export interface StartSchedulesOptions {
  /** Given schedules, `false` for none, or undefined for {@link LocalSchedules}. */
  schedules: Schedules | false | undefined;
  registry: ServerRegistry;
  executor: Executor;
  owners?: OwnerRecords;
  /** The `schedules:` of colloquy.yaml. */
  config: Record<string, ScheduleSpec> | undefined;
  /** The file they came from, for messages. */
  configPath: string | undefined;
}

/** Checks the config's schedules, then starts the schedules (or returns undefined for none). */
export async function startSchedules(
  options: StartSchedulesOptions,
): Promise<Schedules | undefined> {
  if (options.schedules === false) {
    if (options.config && Object.keys(options.config).length > 0) {
      throw new ConfigError(
        'The config has schedules but this server runs none (schedules: false). Remove "schedules:" from colloquy.yaml, or let the server run them.',
      );
    }
    return undefined;
  }
  const file = options.configPath ? path.basename(options.configPath) : 'colloquy.yaml';
  for (const [id, spec] of Object.entries(options.config ?? {})) {
    await checkSchedule(options.registry, spec, `${options.configPath ?? file} schedules.${id}`);
  }
  const schedules =
    options.schedules ??
    new LocalSchedules({
      store: options.registry.runs.store,
      executor: options.executor,
      ...(options.owners ? { owners: options.owners } : {}),
    });
  await schedules.start(options.config ?? {});
  return schedules;
}
