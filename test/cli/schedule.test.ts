// `colloquy schedule add|list|remove` on a SQLite store: what a server without a queue reads, and
// bad flags named in one error line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScheduleRecords } from '../../src/server/schedules/records.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { errorLine, runCli } from './runCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-schedule-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = path.join(dir, 'c.db');
const store = ['--store', `sqlite:${db}`];

describe('colloquy schedule', () => {
  it('adds, lists and removes schedules in the store a server reads', async () => {
    const added = await runCli(
      'schedule',
      'add',
      '--every',
      '2s',
      '--agency',
      'support',
      '--message',
      'Any news?',
      '--user',
      'alice',
      '--id',
      'news',
      ...store,
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toContain('Added schedule news (in-process)');
    const cron = await runCli(
      'schedule',
      'add',
      '--cron',
      '0 9 * * 1-5',
      '--ensemble',
      'report',
      '--message',
      'go',
      ...store,
    );
    expect(cron.code).toBe(0);

    const listed = await runCli('schedule', 'list', '--json', ...store);
    const all = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(all.map((s) => s.id)).toContain('news');
    expect(all.find((s) => s.id === 'news')).toMatchObject({
      every: '2s',
      agency: 'support',
      message: 'Any news?',
      user: 'alice',
      source: 'api',
      status: { ticks: 0, runs: 0, missed: 0 },
    });
    const table = await runCli('schedule', 'list', ...store);
    expect(table.stdout).toMatch(/news\s+every 2s\s+agency support\s+alice/);
    expect(table.stdout).toContain('0 9 * * 1-5');

    // What a server on this store reads.
    const sqlite = new SqliteStore({ path: db });
    expect([...(await new ScheduleRecords(sqlite).all()).keys()]).toHaveLength(2);
    await sqlite.close();

    expect((await runCli('schedule', 'remove', 'news', ...store)).stdout).toContain('Removed');
    const gone = await runCli('schedule', 'remove', 'news', ...store);
    expect(gone.code).toBe(1);
    expect(errorLine(gone).message).toContain('There is no schedule "news"');
  });

  it('names the flag that is wrong', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--agency', 'a', '--message', 'm'], /--every: expected when the schedule ticks/],
      [
        ['--every', '2s', '--cron', '* * * * *', '--agency', 'a', '--message', 'm'],
        /--cron: expected only one/,
      ],
      [['--every', '2 seconds', '--agency', 'a', '--message', 'm'], /--every: expected a duration/],
      [['--every', '2s', '--message', 'm'], /--agency: expected what each tick runs/],
      [['--every', '2s', '--agency', 'a'], /--message: /],
      [
        ['--cron', '99 * * * *', '--agency', 'a', '--message', 'm'],
        /--cron: "99 \* \* \* \*" is not a cron expression/,
      ],
    ];
    for (const [flags, message] of cases) {
      const run = await runCli('schedule', 'add', ...flags, ...store);
      expect(run.code).toBe(1);
      expect(errorLine(run)).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
      });
    }
  });

  it('rejects a bad schedules: entry in colloquy.yaml with the file and field', async () => {
    const project = mkdtempSync(path.join(dir, 'p-'));
    writeFileSync(
      path.join(project, 'colloquy.yaml'),
      'schedules:\n  nightly:\n    every: 2s\n    cron: "0 9 * * *"\n    agency: a\n    message: hi\n',
    );
    const run = await runCli('schedule', 'list', '--config', project, ...store);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('colloquy.yaml:4:11: schedules.nightly.cron: expected only one');
  });
});
