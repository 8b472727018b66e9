// Error paths of `colloquy threads …` and `colloquy traces …`: bad store specs, missing chats,
// threads, traces and files, each one line on stderr with its code, and exit code 1.
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorLine, runCli } from './runCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--store specs', () => {
  it('an unknown scheme lists the accepted forms', async () => {
    const run = await runCli('threads', 'list', '--store', 'mongodb://localhost/x');
    expect(run.code).toBe(1);
    const { code, message } = errorLine(run);
    expect(code).toBe('CONFIG_INVALID');
    expect(message).toContain('Store "mongodb://localhost/x" is not a store spec.');
    expect(message).toContain('sqlite:PATH');
    expect(message).toContain('postgres://');
  });

  it('a prefix without a path says what to write, for reading and writing commands', async () => {
    for (const [args, spec, prefix] of [
      [['threads', 'list'], 'sqlite:', 'sqlite:'],
      [['traces', 'list'], 'sqlite: ', 'sqlite:'],
      [['threads', 'import', 'x.json'], 'sqlite:', 'sqlite:'],
      [['threads', 'list'], 'dir:  ', 'dir:'],
    ] as const) {
      const run = await runCli(...args, '--store', spec);
      expect(run.code, spec).toBe(1);
      expect(errorLine(run)).toEqual({
        code: 'CONFIG_INVALID',
        message: `Store "${spec}" names no path: write ${prefix}PATH.`,
      });
    }
  });

  it('read-only trace commands refuse a missing database and create nothing', async () => {
    const file = path.join(dir, 'nested', 'missing.db');
    for (const args of [
      ['traces', 'list'],
      ['traces', 'show', 'tr_1'],
    ]) {
      const run = await runCli(...args, '--store', `sqlite:${file}`);
      expect(run.code).toBe(1);
      const { code, message } = errorLine(run);
      expect(code).toBe('STORE_ERROR');
      expect(message).toContain(
        `There is no Colloquy database at ${file} (from --store sqlite:${file})`,
      );
    }
    expect(existsSync(path.join(dir, 'nested'))).toBe(false);
  });
});

describe('threads commands on a missing chat or thread', () => {
  it('every chat-level command (fork included) names the chat and how to list them', async () => {
    const store = `dir:${path.join(dir, 'empty-store')}`;
    for (const args of [
      ['threads', 'export', 'ghost'],
      ['threads', 'checkpoint', 'ghost'],
      ['threads', 'fork', 'ghost'],
      ['threads', 'delete', 'ghost', '--yes'],
    ]) {
      const run = await runCli(...args, '--store', store);
      expect(run.code, args.join(' ')).toBe(1);
      const { code, message } = errorLine(run);
      expect(code, args.join(' ')).toBe('CHAT_NOT_FOUND');
      expect(message).toBe(
        'There is no chat "ghost" in the jsonfile store. List the stored chats with: colloquy threads list',
      );
    }
  });

  it('show of a missing thread exits 1 on an empty store', async () => {
    const run = await runCli('threads', 'show', 'nope', '--store', 'memory');
    expect(run.code).toBe(1);
    expect(errorLine(run).message).toContain('No thread "nope"');
  });

  it('an empty store lists nothing and exits 0', async () => {
    const run = await runCli('threads', 'list', '--store', 'memory');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});

describe('threads import', () => {
  it('a JSON file of the wrong version is a SERIALIZATION_ERROR naming the file', async () => {
    const file = path.join(dir, 'future.json');
    writeFileSync(
      file,
      JSON.stringify({ format: 'colloquy-chat', schemaVersion: 99, threads: [] }),
    );
    const run = await runCli('threads', 'import', file, '--store', 'memory');
    expect(run.code).toBe(1);
    expect(errorLine(run).code).toBe('SERIALIZATION_ERROR');
  });
});

describe('commander errors', () => {
  it('a missing argument exits 1 and names it', async () => {
    const run = await runCli('threads', 'show');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("missing required argument 'threadId'");
  });

  it('an unknown option exits 1 and names it', async () => {
    const run = await runCli('threads', 'list', '--frobnicate');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("unknown option '--frobnicate'");
  });

  it('an option without its value exits 1', async () => {
    const run = await runCli('threads', 'list', '--store');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("option '--store <spec>' argument missing");
  });
});

describe('traces flags', () => {
  it('--limit must be a whole number of at least 1, as a CONFIG_INVALID error', async () => {
    for (const limit of ['0', '2.5', 'many']) {
      const run = await runCli('traces', 'list', '--limit', limit, '--store', 'memory');
      expect(run.code, limit).toBe(1);
      expect(errorLine(run)).toEqual({
        code: 'CONFIG_INVALID',
        message: `--limit "${limit}" is not a whole number ≥ 1. Pass e.g. --limit 20.`,
      });
    }
  });

  it('show without traces says how to make one', async () => {
    const run = await runCli('traces', 'show', '--store', 'memory');
    expect(run.code).toBe(1);
    expect(errorLine(run)).toEqual({
      code: 'TRACE_NOT_FOUND',
      message: 'There are no traces in this store. Run an agency first (e.g. `colloquy demo`).',
    });
    const chat = await runCli('traces', 'show', '--chat-id', 'c9', '--store', 'memory');
    expect(errorLine(chat).message).toContain('There are no traces of chat c9 in this store.');
    const byId = await runCli('traces', 'show', 'tr_x', '--store', 'memory');
    expect(errorLine(byId).message).toBe(
      'There is no trace tr_x in this store. List them with `colloquy traces list`.',
    );
  });
});
