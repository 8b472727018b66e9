/**
 * When a schedule ticks: the next tick after a moment, and how many ticks fell in a span (the
 * ticks missed while nothing ran). `every` ticks on whole multiples of its duration since the
 * epoch, so every process agrees on them; `cron` expressions are read by `cron-parser` (the
 * parser BullMQ uses, loaded on first use).
 * @module
 */
import { ConfigError } from '../errors.js';
import { parseEvery, type ScheduleSpec } from './spec.js';

type CronParser = typeof import('cron-parser').CronExpressionParser;

let parser: Promise<CronParser> | undefined;

/** `cron-parser`, or a ConfigError naming the install line when it is missing. */
async function cronParser(): Promise<CronParser> {
  parser ??= import('cron-parser').then(
    (module) => module.CronExpressionParser,
    (error: unknown) => {
      parser = undefined;
      throw new ConfigError(
        'Cron schedules need the package "cron-parser" (it comes with bullmq). Run: npm install cron-parser — or use "every" (e.g. "every: 5m") instead.',
        { cause: error },
      );
    },
  );
  return parser;
}

/** The most ticks counted one by one in a span; beyond it the count is estimated from its pace. */
const MAX_COUNTED = 10_000;

/**
 * Checks a schedule's `cron` with the parser. Throws a ConfigError naming `where` (a file and
 * field, or a request field) and the parser's complaint.
 */
export async function checkTiming(spec: ScheduleSpec, where: string): Promise<void> {
  if (spec.cron === undefined) return;
  const Parser = await cronParser();
  try {
    Parser.parse(spec.cron);
  } catch (error) {
    throw new ConfigError(
      `${where}: "${spec.cron}" is not a cron expression (${(error as Error).message}). Use 5 fields (minute hour day month weekday), e.g. "0 9 * * 1-5", or 6 with seconds first.`,
      { cause: error },
    );
  }
}

/** The interval of an `every` schedule in ms (undefined for cron). */
export function everyMs(spec: ScheduleSpec): number | undefined {
  return spec.every === undefined ? undefined : parseEvery(spec.every);
}

/** The first tick strictly after `afterMs`. */
export async function nextTick(spec: ScheduleSpec, afterMs: number): Promise<number> {
  const every = everyMs(spec);
  if (every !== undefined) return (Math.floor(afterMs / every) + 1) * every;
  const Parser = await cronParser();
  return Parser.parse(spec.cron!, { currentDate: new Date(afterMs) })
    .next()
    .getTime();
}

/** How many ticks fall in `(fromMs, toMs]`: 0 when `toMs <= fromMs`. */
export async function ticksIn(spec: ScheduleSpec, fromMs: number, toMs: number): Promise<number> {
  if (toMs <= fromMs) return 0;
  const every = everyMs(spec);
  if (every !== undefined) return Math.floor(toMs / every) - Math.floor(fromMs / every);
  const Parser = await cronParser();
  const ticks = Parser.parse(spec.cron!, { currentDate: new Date(fromMs) });
  let count = 0;
  let last = fromMs;
  while (count < MAX_COUNTED) {
    const next = ticks.next().getTime();
    if (next > toMs) return count;
    count += 1;
    last = next;
  }
  // A fast cron over a long outage: the rest at the pace of the ticks counted.
  return count + Math.floor(((toMs - last) * count) / Math.max(1, last - fromMs));
}
