import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEnvelope } from '../../src/threads/serialization.js';
import { spawnColloquy, type CliRun } from './spawnCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-threads-'));
const db = path.join(dir, 'threads.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI in the temp dir on the temp `COLLOQUY_DB`, offline. */
function colloquy(...args: string[]): Promise<CliRun> {
  return spawnColloquy(args, { cwd: dir, env: { COLLOQUY_DB: db } });
}

async function ok(...args: string[]): Promise<string> {
  const run = await colloquy(...args);
  expect(run.stderr, `colloquy ${args.join(' ')}`).toBe('');
  expect(run.code, `colloquy ${args.join(' ')}`).toBe(0);
  return run.stdout;
}

/** `threads list` output (a header, then a row per thread) as `threadId → item count`. */
function counts(stdout: string): Record<string, number> {
  const [head, ...rows] = stdout.trim().split('\n');
  expect(head).toMatch(/^thread +items {2}chat +updated$/);
  return Object.fromEntries(
    rows.map((line) => {
      const match = /^(\S+)\s+(\d+) {2}(\S+) +\d{4}-\S+$/.exec(line);
      expect(match, line).not.toBeNull();
      return [match![1]!, Number(match![2])];
    }),
  );
}

const T = (chat: string) => ({
  researcher: `${chat}__Coordinator__Researcher`,
  user: `${chat}__Coordinator__USER`,
  writer: `${chat}__Coordinator__Writer`,
  editor: `${chat}__Editor__Writer`,
});
const firstRun = (chat: string) => ({
  [T(chat).researcher]: 2,
  [T(chat).user]: 6,
  [T(chat).writer]: 4,
  [T(chat).editor]: 2,
});

// The steps build on each other, in order, on one store: demo, checkpoint, demo, fork, rollback, export/import.
describe('colloquy threads', { timeout: 90_000 }, () => {
  let checkpoint = '';

  beforeAll(async () => {
    await ok('demo', '--chat-id', 't1', '--no-progress');
  }, 60_000);

  it('checkpoint records the chat and checkpoints lists it', async () => {
    const out = await ok('threads', 'checkpoint', 't1', '--label', 'first run');
    const match = /^(ckpt_[0-9a-f-]{36}) {2}\(4 threads\)\n$/.exec(out);
    expect(match, out).not.toBeNull();
    checkpoint = match![1]!;
    const listed = await ok('threads', 'checkpoints', 't1');
    expect(listed).toMatch(
      new RegExp(`^${checkpoint} {2}\\d{4}-\\d\\d-\\d\\dT\\S+Z {2}first run\\n$`),
    );
  });

  it('list --chat shows every thread of the chat with its item count', async () => {
    await ok('demo', '--chat-id', 't1', '--no-progress');
    expect(counts(await ok('threads', 'list', '--chat', 't1'))).toEqual({
      [T('t1').researcher]: 4,
      [T('t1').user]: 12,
      [T('t1').writer]: 8,
      [T('t1').editor]: 4,
    });
    expect(await ok('threads', 'list', '--chat', 'nope')).toBe('No threads in chat nope.\n');
  });

  it('fork --at CHECKPOINT --as NEW makes a chat with the pre-checkpoint history', async () => {
    expect(await ok('threads', 'fork', 't1', '--at', checkpoint, '--as', 'past')).toBe(
      `Forked t1 at ${checkpoint} into past.\n`,
    );
    expect(counts(await ok('threads', 'list', '--chat', 'past'))).toEqual(firstRun('past'));
    const bad = await colloquy('threads', 'fork', 't1', '--at', 'ckpt_missing');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      `colloquy: error [CHECKPOINT_NOT_FOUND]: Chat "t1" has no checkpoint "ckpt_missing". Its checkpoints: ${checkpoint} (first run).`,
    );
  });

  it('rollback cuts the chat back to the checkpoint and lists the archive threads', async () => {
    const out = (await ok('threads', 'rollback', 't1', checkpoint)).trim().split('\n');
    expect(out[0]).toBe(`Rolled t1 back to ${checkpoint}.`);
    const archives = out
      .slice(1)
      .map((line) => /^ {2}(\S+): later items kept in (\S+)$/.exec(line)!.slice(1));
    expect(archives.map(([thread]) => thread).sort()).toEqual(Object.values(T('t1')).sort());
    for (const [thread, archive] of archives)
      expect(archive!.startsWith(`${thread}~reset~`)).toBe(true);

    const listed = counts(await ok('threads', 'list', '--chat', 't1'));
    const live = Object.fromEntries(
      Object.entries(listed).filter(([id]) => !id.includes('~reset~')),
    );
    expect(live).toEqual(firstRun('t1'));
    expect(
      Object.fromEntries(archives.map(([thread, archive]) => [thread, listed[archive!]])),
    ).toEqual({
      [T('t1').researcher]: 4,
      [T('t1').user]: 12,
      [T('t1').writer]: 8,
      [T('t1').editor]: 4,
    });
  });

  it('export prints the chat as JSON that import --as loads under a new chat id, and show prints a thread', async () => {
    const exported = await ok('threads', 'export', 't1');
    const envelope = JSON.parse(exported) as ChatEnvelope;
    expect(envelope).toMatchObject({ format: 'colloquy-chat', version: 1, chatId: 't1' });
    expect(envelope.threads).toHaveLength(8); // four live threads and four archives
    expect(envelope.checkpoints.map((c) => [c.checkpointId, c.label])).toEqual([
      [checkpoint, 'first run'],
    ]);
    const file = path.join(dir, 't1.json');
    writeFileSync(file, exported);

    expect(await ok('threads', 'import', file, '--as', 'copy')).toBe(
      'Imported chat copy: 8 threads, 1 checkpoints.\n',
    );
    const again = await colloquy('threads', 'import', file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');

    const shown = (await ok('threads', 'show', T('copy').user)).trimEnd().split('\n');
    expect(shown[0]).toBe(`${T('copy').user}  (chat copy, 6 items)`);
    expect(shown[1]).toMatch(/^# {2}agent +type +content$/);
    const rows = shown.slice(2).map((line) => line.trim().split(/\s+/).slice(0, 3));
    expect(rows).toEqual([
      ['0', 'Coordinator', 'user'],
      ['1', 'Coordinator', 'function_call'],
      ['2', 'Coordinator', 'function_call_result'],
      ['3', 'Coordinator', 'function_call'],
      ['4', 'Coordinator', 'function_call_result'],
      ['5', 'Coordinator', 'assistant'],
    ]);
    expect(shown[2]).toContain('Write a short brief about tidal energy.');
    expect(shown[3]).toContain(
      'send_message({"recipient":"Researcher","message":"Find three key facts about tidal energy."',
    );
  });

  it('a bad --store spec exits 1 with a message listing the accepted forms', async () => {
    const run = await colloquy('threads', 'list', '--store', 'mysql://localhost/db');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(
      'colloquy: error [CONFIG_INVALID]: Store "mysql://localhost/db" is not a store spec. ' +
        'Use memory, sqlite:PATH (or a bare file path), dir:PATH, redis://HOST:PORT, postgres://USER@HOST:PORT/DB or conversations:https://api.openai.com/v1.',
    );
  });
});
