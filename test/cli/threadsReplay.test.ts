// `colloquy threads replay`: what-if on a demo chat, in-process on a temporary SQLite store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLine, runCli } from './runCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-replay-'));
const saved = { db: process.env.COLLOQUY_DB, cwd: process.cwd() };
let firstItem = '';

beforeAll(async () => {
  process.env.COLLOQUY_DB = path.join(dir, 'threads.db');
  process.chdir(dir);
  const demo = await runCli('demo', '--chat-id', 'r1', '--no-progress');
  expect(demo.code).toBe(0);
  const shown = await runCli('threads', 'show', 'r1__Coordinator__USER', '--json');
  firstItem = (JSON.parse(shown.stdout) as { items: Array<{ id: string }> }).items[0]!.id;
}, 60_000);

afterAll(() => {
  process.chdir(saved.cwd);
  if (saved.db === undefined) delete process.env.COLLOQUY_DB;
  else process.env.COLLOQUY_DB = saved.db;
  rmSync(dir, { recursive: true, force: true });
});

describe('colloquy threads replay', { timeout: 60_000 }, () => {
  it('--json prints the fork, the replayed and live model calls, and the differences', async () => {
    writeFileSync(path.join(dir, 'brief.md'), 'Be brief.');
    const run = await runCli(
      'threads',
      'replay',
      'r1',
      '--at',
      firstItem,
      '--set',
      'Writer.instructions=@brief.md',
      '--json',
    );
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as {
      chatId: string;
      forkOf: string;
      modelCalls: { replayed: number; live: number; byAgent: Record<string, { live: number }> };
      differences: unknown[];
    };
    expect(result.forkOf).toBe('r1');
    expect(result.chatId).toMatch(/^chat_/);
    // Writer (changed) makes its 2 calls live; the demo's scripted Writer answers as before, so
    // every other call is answered from the chat and nothing differs.
    expect(result.modelCalls).toMatchObject({ replayed: 5, live: 2 });
    expect(result.modelCalls.byAgent.Writer).toEqual({ replayed: 0, live: 2 });
    expect(result.differences).toEqual([]);
    const list = await runCli('threads', 'list', '--chat', result.chatId);
    expect(list.stdout).toContain(`${result.chatId}__Coordinator__USER`);
  });

  it('prints the fork id and a table of what differs', async () => {
    const run = await runCli(
      'threads',
      'replay',
      'r1',
      '--at',
      firstItem,
      '--message',
      'Write a short brief about wind power.',
    );
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^Replayed chat r1 from item \S+ into chat chat_\S+ \(agency demo\)\.$/,
    );
    expect(lines[1]).toMatch(/^Model calls: 0 replayed, 7 live/);
    expect(lines[2]).toBe('18 differences:');
    expect(lines[3]).toMatch(/^ {2}agent +what +original +what if$/);
    expect(lines[4]).toMatch(
      /^ {2}Coordinator +input +Write a short brief about tidal energy\. +Write a short brief about wind power\.$/,
    );
  });

  it('names the flag and the fix for a bad --set', async () => {
    const cases: Array<[string, RegExp]> = [
      [
        'Bob.model=x',
        /--set "Bob\.model=x": agency "demo" has no agent "Bob"\. Use one of: Coordinator, Researcher, Writer, Editor\./,
      ],
      [
        'Writer.tools=x',
        /--set "Writer\.tools=x": "tools" cannot be changed; use Writer\.instructions=@FILE\.md\|TEXT or Writer\.model=NAME\./,
      ],
      [
        'Writer.instructions=@missing.md',
        /--set "Writer\.instructions=@missing\.md": cannot read the instructions file .*missing\.md \(ENOENT\)/,
      ],
      ['Writer', /--set "Writer" is not of the form AGENT\.instructions=@FILE\.md/],
    ];
    for (const [flag, message] of cases) {
      const run = await runCli('threads', 'replay', 'r1', '--at', firstItem, '--set', flag);
      expect(run.code, flag).toBe(1);
      expect(errorLine(run)).toMatchObject({ code: 'CONFIG_INVALID' });
      expect(errorLine(run).message).toMatch(message);
    }
  });

  it('names an unknown item', async () => {
    const run = await runCli('threads', 'replay', 'r1', '--at', 'no-such-item');
    expect(run.code).toBe(1);
    expect(errorLine(run)).toMatchObject({ code: 'THREAD_NOT_FOUND' });
    expect(errorLine(run).message).toMatch(/Chat "r1" has no item "no-such-item"/);
  });
});
