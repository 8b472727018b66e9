/**
 * Checks that a schedule can run where it is added: its cron parses, and its agency or ensemble
 * is served. Problems name the field (`cron`, `agency`, `ensemble`) and the fix.
 * @module
 */
import { checkTiming } from '../../schedules/timing.js';
import type { ScheduleSpec } from '../../schedules/spec.js';
import { ConfigError } from '../../errors.js';
import type { ServerRegistry } from '../registry.js';

/** A problem with one field of a schedule. */
export class ScheduleFieldError extends ConfigError {
  constructor(
    readonly field: 'cron' | 'agency' | 'ensemble',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * Throws a {@link ScheduleFieldError} when `spec` cannot run on `registry`; `where` names the
 * schedule in messages (`colloquy.yaml schedules.nightly`, `the request body`).
 */
export async function checkSchedule(
  registry: ServerRegistry,
  spec: ScheduleSpec,
  where: string,
): Promise<void> {
  try {
    await checkTiming(spec, `${where}: "cron"`);
  } catch (error) {
    throw new ScheduleFieldError('cron', (error as Error).message, { cause: error });
  }
  if (spec.agency !== undefined && !registry.agencies.has(spec.agency)) {
    const known = [...registry.agencies.keys()].join(', ') || '(none)';
    throw new ScheduleFieldError(
      'agency',
      `${where}: "agency" names "${spec.agency}", which is not served. Served agencies: ${known}.`,
    );
  }
  if (spec.ensemble !== undefined) {
    const names = await registry.ensembles.names();
    if (!names.includes(spec.ensemble)) {
      throw new ScheduleFieldError(
        'ensemble',
        `${where}: "ensemble" names "${spec.ensemble}", which is not in the ensembles directory. Known: ${names.join(', ') || '(none)'}.`,
      );
    }
  }
}

/** Whether two schedules tick and run the same way (a config change needs an update otherwise). */
export function sameSpec(a: ScheduleSpec, b: ScheduleSpec): boolean {
  const keys = ['cron', 'every', 'agency', 'ensemble', 'message', 'user'] as const;
  return keys.every((key) => a[key] === b[key]);
}
