import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnColloquy, type CliRun } from './spawnCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-traces-'));
const DB = path.join(dir, 'traces.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function colloquy(args: string[]): Promise<CliRun> {
  return spawnColloquy(args, { cwd: dir, env: { COLLOQUY_DB: DB } });
}

describe('colloquy traces, threads delete and read-only commands', () => {
  it('demo writes a trace that traces list and show print as a tree', async () => {
    const demo = await colloquy(['demo', '--chat-id', 'tr-1']);
    expect(demo.code, demo.stderr).toBe(0);
    // Off a terminal, one line per finished run on stderr.
    expect(demo.stderr).toMatch(/✓ Editor \(asked by Writer\)/);
    const list = await colloquy(['traces', 'list', '--chat-id', 'tr-1']);
    expect(list.stdout).toMatch(/agency demo .* 14 spans {2}105 tokens {2}chat=tr-1/);
    const show = await colloquy(['traces', 'show', '--chat-id', 'tr-1']);
    expect(show.stdout.match(/model scripted/g)).toHaveLength(7);
    expect(show.stdout).toMatch(/└─ Editor \(asked by Writer\)/);
    const json = JSON.parse(
      (await colloquy(['traces', 'show', '--chat-id', 'tr-1', '--json'])).stdout,
    );
    expect(json.spans).toHaveLength(14);
  });

  it('--log-level debug prints one line per model call and info per agent run', async () => {
    const run = await colloquy(['--log-level', 'debug', 'demo', '--no-progress']);
    const lines = run.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const calls = lines.filter((line) => String(line.msg).startsWith('model call'));
    expect(calls).toHaveLength(7);
    expect(calls[0]).toMatchObject({ level: 20, agent: 'Coordinator', inputTokens: 10 });
    const runs = lines.filter((line) => line.level === 30 && /^agent run/.test(line.msg));
    expect(runs.map((line) => line.agent)).toEqual([
      'Researcher',
      'Editor',
      'Writer',
      'Coordinator',
    ]);
    expect(runs[1]).toMatchObject({ caller: 'Writer', depth: 2, outcome: 'ok' });
  });

  it('fails with CHAT_NOT_FOUND for export and checkpoint of an unknown chat', async () => {
    for (const args of [
      ['threads', 'export', 'nope'],
      ['threads', 'checkpoint', 'nope'],
    ]) {
      const run = await colloquy(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/error \[CHAT_NOT_FOUND\]: There is no chat "nope"/);
    }
  });

  it('deletes a chat with its threads and traces', async () => {
    await colloquy(['demo', '--chat-id', 'tr-del', '--no-progress']);
    const run = await colloquy(['threads', 'delete', 'tr-del', '--yes']);
    expect(run.stdout).toMatch(/Deleted chat tr-del: 4 threads, 1 traces/);
    expect((await colloquy(['threads', 'list', '--chat', 'tr-del'])).stdout).toMatch(/No threads/);
    expect((await colloquy(['traces', 'list', '--chat-id', 'tr-del'])).stdout).toMatch(/No traces/);
  });

  it('read-only commands with a mistyped sqlite: path create nothing', async () => {
    const missing = path.join(dir, 'typo', 'colloquy.db');
    for (const args of [
      ['threads', 'list', '--store', `sqlite:${missing}`],
      ['traces', 'list', '--store', `sqlite:${missing}`],
      ['threads', 'export', 'x', '--store', `sqlite:${missing}`],
    ]) {
      const run = await colloquy(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/no Colloquy database at .*typo.*nothing was created/);
    }
    expect(existsSync(path.join(dir, 'typo'))).toBe(false);
  });
});
