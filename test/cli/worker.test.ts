import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { wholeFlag } from '../../src/cli/commands/worker.js';
import { queuedRegistry } from '../../src/cli/queuedRegistry.js';
import { ConfigError } from '../../src/errors.js';
import { createWorker } from '../../src/queue/worker.js';
import { createRegistry } from '../../src/server/registry.js';

const run = async (...args: string[]) => {
  const argv = ['node', 'colloquy', ...args];
  const program = (await buildProgram(argv)).exitOverride();
  for (const command of program.commands) command.exitOverride();
  return program.parseAsync(argv);
};

describe('colloquy worker and serve --queue: flag checks', () => {
  it('refuses stores other processes cannot see, naming the fix', async () => {
    for (const store of ['memory', 'sqlite:x.db', 'dir:threads']) {
      await expect(queuedRegistry({ store })).rejects.toThrow(ConfigError);
      await expect(queuedRegistry({ store })).rejects.toThrow(/--store redis:\/\//);
    }
  });

  it('whole-number flags say which flag is wrong', () => {
    expect(wholeFlag('4', '--concurrency', 1)).toBe(4);
    expect(() => wholeFlag('0', '--concurrency', 1)).toThrow(
      /--concurrency "0" is not a whole number ≥ 1/,
    );
    expect(() => wholeFlag('x', '--grace')).toThrow(ConfigError);
  });

  it('serve needs --queue and --store together', async () => {
    await expect(run('serve', '--store', 'postgres://u@127.0.0.1:1/db')).rejects.toThrow(
      /--store is for a queued server/,
    );
    await expect(run('serve', '--queue', 'redis://127.0.0.1:1')).rejects.toThrow(
      /--queue needs --store/,
    );
  });

  it('worker needs --queue and --store', async () => {
    await expect(run('worker', '--store', 'postgres://u@127.0.0.1:1/db')).rejects.toThrow(
      /--queue/,
    );
  });

  it('createWorker refuses an in-process store before connecting to anything', () => {
    const registry = createRegistry();
    expect(() => createWorker({ queue: 'redis://127.0.0.1:1', registry })).toThrow(
      /the memory store is not shared between processes/,
    );
  });
});
