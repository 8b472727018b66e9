// The CLI in-process: main() turns errors into one line with the code and a non-zero exit, and
// the threads commands' error paths name what failed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { runCli } from './runCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `colloquy ...args` in this process, capturing its output and exit code. */
const run = runCli;

afterEach(() => {
  process.exitCode = 0;
});

async function seededStore(): Promise<string> {
  const file = path.join(dir, `seed-${Math.random().toString(36).slice(2)}.db`);
  const store = new SqliteStore({ path: file });
  await store.append(
    'c1__A__USER',
    [
      { id: 'i1', item: { role: 'user', content: 'hello there' } },
      {
        id: 'i2',
        item: { type: 'function_call', callId: 'x', name: 'lookup', arguments: '{"q":1}' },
        meta: {
          agent: 'A',
          callerAgent: null,
          runId: 'r1',
          parentRunId: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      },
    ],
    { expectedVersion: 0, chatId: 'c1' },
  );
  await store.close();
  return `sqlite:${file}`;
}

describe('main', () => {
  it('registers every command', async () => {
    const names = (await buildProgram()).commands.map((c) => c.name());
    expect(names).toEqual(
      expect.arrayContaining(['demo', 'threads', 'invoke', 'validate', 'serve']),
    );
  });

  it('refuses an unknown log level with the code and the levels', async () => {
    const result = await run('--log-level', 'loud', 'threads', 'list', '--store', 'memory');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^colloquy: error \[CONFIG_INVALID\]: --log-level "loud"/);
    expect(result.stderr).toContain('debug');
  });

  it('exits with commander’s code for an unknown command, and prints help after the error', async () => {
    const result = await run('frobnicate');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it('prints a plain error for a non-Colloquy failure', async () => {
    const result = await run('threads', 'list', '--store', 'nosuch://x');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^colloquy: error/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('threads commands', () => {
  it('shows a thread as text and as JSON, and says how to list them when it is missing', async () => {
    const store = await seededStore();
    const text = await run('threads', 'show', 'c1__A__USER', '--store', store);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('c1__A__USER  (chat c1, 2 items)');
    expect(text.stdout).toContain('hello there');
    expect(text.stdout).toContain('lookup({"q":1})');
    const json = await run('threads', 'show', 'c1__A__USER', '--json', '--store', store);
    expect(JSON.parse(json.stdout)).toMatchObject({ threadId: 'c1__A__USER', version: 2 });
    const missing = await run('threads', 'show', 'nope', '--store', store);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No thread "nope"');
    expect(missing.stderr).toContain('colloquy threads list');
  });

  it('refuses to import a file that is not JSON, or not a chat export', async () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{oops');
    const notJson = await run('threads', 'import', bad, '--store', 'memory');
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain('[SERIALIZATION_ERROR]');
    expect(notJson.stderr).toContain(`${bad} is not readable JSON`);
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ hello: 'world' }));
    const wrongShape = await run('threads', 'import', other, '--store', 'memory');
    expect(wrongShape.code).toBe(1);
    expect(wrongShape.stderr).toContain('[SERIALIZATION_ERROR]');
    const absent = await run(
      'threads',
      'import',
      path.join(dir, 'absent.json'),
      '--store',
      'memory',
    );
    expect(absent.stderr).toContain('is not readable JSON');
  });

  it('names the missing checkpoint on fork --at and rollback', async () => {
    const store = await seededStore();
    const fork = await run('threads', 'fork', 'c1', '--at', 'ckpt_missing', '--store', store);
    expect(fork.code).toBe(1);
    expect(fork.stderr).toContain('[CHECKPOINT_NOT_FOUND]');
    expect(fork.stderr).toContain('ckpt_missing');
    const rollback = await run('threads', 'rollback', 'c1', 'ckpt_missing', '--store', store);
    expect(rollback.code).toBe(1);
    expect(rollback.stderr).toContain('[CHECKPOINT_NOT_FOUND]');
  });

  it('checkpoints, lists, rolls back with nothing to cut, and exports a chat', async () => {
    const store = await seededStore();
    expect((await run('threads', 'checkpoints', 'c1', '--store', store)).stdout).toBe(
      'Chat c1 has no checkpoints.\n',
    );
    const made = await run('threads', 'checkpoint', 'c1', '--label', 'start', '--store', store);
    const checkpointId = made.stdout.split(/\s+/)[0]!;
    expect(made.stdout).toMatch(/\(1 threads\)/);
    const listed = await run('threads', 'checkpoints', 'c1', '--store', store);
    expect(listed.stdout).toContain(checkpointId);
    expect(listed.stdout).toContain('start');
    const rolledBack = await run('threads', 'rollback', 'c1', checkpointId, '--store', store);
    expect(rolledBack.stdout).toContain('(nothing to cut)');
    const exportRun = await run('threads', 'export', 'c1', '--store', store);
    expect(exportRun.stderr).toBe('');
    const exported = JSON.parse(exportRun.stdout);
    expect(exported.threads).toHaveLength(1);
    expect(exported.checkpoints).toHaveLength(1);
  });
});
