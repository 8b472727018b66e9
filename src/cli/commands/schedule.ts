/**
 * `colloquy schedule add|list|remove`: the schedules a server runs, written where it reads them —
 * the project's store (`store:` of colloquy.yaml, or `--store`), which an in-process server
 * re-reads every few seconds, or with `--queue` the queue's Redis, where workers run them.
 * @module
 */
import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';

interface CommonFlags {
  config?: string;
  store?: string;
  queue?: string;
  queuePrefix: string;
}

interface AddFlags extends CommonFlags {
  id?: string;
  cron?: string;
  every?: string;
  agency?: string;
  ensemble?: string;
  message?: string;
  user?: string;
}

type Schedules = import('../../server/schedules/types.js').Schedules;

/** The schedules the flags name, and how to close what was opened. */
async function openSchedules(
  flags: CommonFlags,
): Promise<{ schedules: Schedules; close: () => Promise<void> }> {
  if (flags.queue !== undefined) {
    const { QueueClient } = await import('../../queue/client.js');
    const { QueueSchedules } = await import('../../queue/schedules.js');
    const client = new QueueClient({ queue: flags.queue, prefix: flags.queuePrefix });
    return { schedules: new QueueSchedules(client), close: () => client.close() };
  }
  const { readConfig } = await import('../../server/registry.js');
  const { openStore } = await import('../../stores/openStore.js');
  const { LocalSchedules } = await import('../../server/schedules/localSchedules.js');
  const config = await readConfig(flags.config);
  const store = await openStore(flags.store ?? config.store);
  return { schedules: new LocalSchedules({ store }), close: () => store.close() };
}

async function withSchedules(
  flags: CommonFlags,
  work: (schedules: Schedules) => Promise<void>,
): Promise<void> {
  const { schedules, close } = await openSchedules(flags);
  try {
    await work(schedules);
  } finally {
    await close();
  }
}

function common(command: Command): Command {
  return command
    .option('--config <path>', 'the colloquy.yaml to read (default: ./colloquy.yaml if present)')
    .option('--store <spec>', "the server's store (default: store: of colloquy.yaml)")
    .option('--queue <url>', 'the Redis of a queued server (its workers run the schedules)')
    .option('--queue-prefix <prefix>', 'prefix of the queue keys', 'colloquy');
}

/** A schedule from the flags, checked by the schema of POST /schedules (errors name the flag). */
async function scheduleOf(flags: AddFlags) {
  const { scheduleBodySchema } = await import('../../schedules/spec.js');
  const { checkTiming } = await import('../../schedules/timing.js');
  const fields = ['id', 'cron', 'every', 'agency', 'ensemble', 'message', 'user'] as const;
  const body = Object.fromEntries(
    fields.filter((field) => flags[field] !== undefined).map((field) => [field, flags[field]]),
  );
  const parsed = scheduleBodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const flag = `--${String(issue.path[0] ?? 'message')}`;
    throw new ConfigError(`${flag}: ${issue.message}. See colloquy schedule add --help.`);
  }
  await checkTiming(parsed.data, '--cron');
  return parsed.data;
}

/** Registers `colloquy schedule`. */
export function registerScheduleCommands(program: Command): void {
  const schedule = program
    .command('schedule')
    .description('Add, list and remove schedules: agency messages or ensemble runs on a timer.');

  common(
    schedule
      .command('add')
      .description('Add a schedule (one of --cron/--every, one of --agency/--ensemble).')
      .option('--cron <expr>', 'a cron expression, e.g. "0 9 * * 1-5" (6 fields: seconds first)')
      .option('--every <duration>', 'a fixed interval: 500ms, 2s, 5m, 1h, 1d')
      .option('--agency <name>', 'send each tick a message to this agency (in a new chat)')
      .option('--ensemble <name>', 'start a run of this ensemble on each tick')
      .option('--message <text>', 'the message (or the ensemble input) of each tick')
      .option('--user <id>', 'the user the runs belong to (and run as, for memory)')
      .option('--id <id>', 'the schedule id (default: a new sched_… id)'),
  ).action(async (flags: AddFlags) => {
    const { randomUUID } = await import('node:crypto');
    const { id = `sched_${randomUUID()}`, ...spec } = await scheduleOf(flags);
    await withSchedules(flags, async (schedules) => {
      const view = await schedules.add({ ...spec, id, source: 'api' });
      process.stdout.write(`Added schedule ${view.id} (${schedules.kind}).\n`);
    });
  });

  common(schedule.command('list').description('List schedules and their status.'))
    .option('--json', 'print the schedules as JSON')
    .action(async (flags: CommonFlags & { json?: boolean }) => {
      const { renderTable } = await import('../table.js');
      await withSchedules(flags, async (schedules) => {
        const all = await schedules.list();
        if (flags.json) return void process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
        if (all.length === 0) return void process.stdout.write('No schedules.\n');
        const rows = all.map((s) => [
          s.id,
          s.cron ?? `every ${s.every}`,
          s.agency !== undefined ? `agency ${s.agency}` : `ensemble ${s.ensemble}`,
          s.user ?? '',
          s.status.ticks,
          s.status.runs,
          s.status.missed,
          s.status.lastRunAt ?? '',
          s.status.lastError ?? '',
        ]);
        const head = [
          'id',
          'when',
          'runs',
          'user',
          'ticks',
          'runs',
          'missed',
          'last run',
          'last error',
        ];
        process.stdout.write(`${renderTable(head, rows).join('\n')}\n`);
      });
    });

  common(schedule.command('remove').description('Remove a schedule.').argument('<id>')).action(
    async (id: string, flags: CommonFlags) => {
      await withSchedules(flags, async (schedules) => {
        if (!(await schedules.remove(id))) {
          throw new ConfigError(
            `There is no schedule "${id}". List them with: colloquy schedule list`,
          );
        }
        process.stdout.write(`Removed schedule ${id}.\n`);
      });
    },
  );
}
