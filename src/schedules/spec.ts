/**
 * What a schedule is: when it ticks (`cron` or `every`), what each tick runs (an agency message
 * or an ensemble run) and for whom. One zod schema checks it wherever it comes from: the
 * `schedules:` map of `colloquy.yaml`, the body of `POST /schedules` and `colloquy schedule add`.
 * @module
 */
import { z } from 'zod';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The shortest `every` accepted, in ms (a typo such as `1ms` would otherwise flood the queue). */
export const MIN_EVERY_MS = 100;

/**
 * The milliseconds of an `every` duration (`500ms`, `2s`, `5m`, `1h`, `1d`), or `undefined` when
 * the text is not one.
 */
export function parseEvery(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2]!]!;
}

/**
 * A cron expression's shape: 5 fields (minute first) or 6 (seconds first), or a predefined one
 * such as `@hourly`. The parser checks the fields themselves when the schedule is added.
 */
export function looksLikeCron(text: string): boolean {
  const trimmed = text.trim();
  if (/^@[a-z]+$/.test(trimmed)) return true;
  const fields = trimmed.split(/\s+/);
  return fields.length === 5 || fields.length === 6;
}

const idText = z
  .string()
  .min(1, 'expected a non-empty id')
  .max(120, 'expected an id of at most 120 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
    'expected letters, digits, "_", "." or "-" (starting with a letter or digit)',
  );

/** The fields of a schedule, without the checks that tie them together. */
const fields = {
  cron: z
    .string()
    .refine(looksLikeCron, 'expected a cron expression of 5 or 6 fields, e.g. "0 9 * * 1-5"')
    .optional(),
  every: z
    .string()
    .refine(
      (text) => (parseEvery(text) ?? 0) >= MIN_EVERY_MS,
      `expected a duration of at least ${MIN_EVERY_MS}ms such as "2s", "5m", "1h" or "1d"`,
    )
    .optional(),
  agency: z.string().min(1, 'expected an agency name').optional(),
  ensemble: z.string().min(1, 'expected an ensemble name').optional(),
  message: z.string().min(1, 'expected the message (or ensemble input) each tick sends'),
  user: z
    .string()
    .min(1, 'expected a user id')
    .max(200, 'expected a user id of at most 200 characters')
    .optional(),
};

type Fields = { cron?: string; every?: string; agency?: string; ensemble?: string };

/** Exactly one of `cron`/`every` and one of `agency`/`ensemble`, each error on its field. */
function checkChoices(value: Fields, ctx: z.RefinementCtx): void {
  if ((value.cron === undefined) === (value.every === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [value.cron === undefined ? 'every' : 'cron'],
      message:
        value.cron === undefined
          ? 'expected when the schedule ticks: "cron" (e.g. "0 9 * * *") or "every" (e.g. "2s")'
          : 'expected only one of "cron" and "every"',
    });
  }
  if ((value.agency === undefined) === (value.ensemble === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [value.agency === undefined ? 'agency' : 'ensemble'],
      message:
        value.agency === undefined
          ? 'expected what each tick runs: "agency" (a message to it) or "ensemble" (a run of it)'
          : 'expected only one of "agency" and "ensemble"',
    });
  }
}

/** One schedule as `colloquy.yaml` gives it (its id is its key in the `schedules:` map). */
export const scheduleSpecSchema = z.object(fields).strict().superRefine(checkChoices);

/** A checked schedule: when it ticks and what each tick runs. */
export type ScheduleSpec = z.output<typeof scheduleSpecSchema>;

/** The `schedules:` map of `colloquy.yaml`: schedule id → schedule. */
export const scheduleMapSchema = z.record(idText, scheduleSpecSchema);

/** The body of `POST /schedules` (and `colloquy schedule add`): a schedule, with an optional id. */
export const scheduleBodySchema = z
  .object({ id: idText.optional(), ...fields })
  .strict()
  .superRefine(checkChoices);

/** A parsed {@link scheduleBodySchema}. */
export type ScheduleBody = z.output<typeof scheduleBodySchema>;

/** The schema of a schedule id. */
export const scheduleIdSchema = idText;
