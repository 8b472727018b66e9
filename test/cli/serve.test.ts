// `colloquy serve` without a real listener: the CLI hands startServer the demo agency as the
// fallback for a config without agencies (unless --no-demo), and checks its number flags.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StartServerOptions } from '../../src/server/serve.js';
import { MemoryStore } from '../../src/stores/memory.js';

const started: StartServerOptions[] = [];
vi.mock('../../src/server/serve.js', () => ({
  startServer: async (options: StartServerOptions) => {
    started.push(options);
    return {
      url: 'http://127.0.0.1:1',
      registry: {
        agencies: new Map([['x', {}]]),
        ensembles: { names: async () => ['e1'] },
      },
    };
  },
}));

const { main } = await import('../../src/cli/main.js');

async function serve(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c) => {
    stdout += String(c);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c) => {
    stderr += String(c);
    return true;
  });
  try {
    await main(['node', 'colloquy', 'serve', ...args]);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return { stdout, stderr };
}

afterEach(() => {
  started.length = 0;
  process.exitCode = 0;
});

describe('colloquy serve', () => {
  it('passes the demo agency as the fallback, built on the store it is given', async () => {
    const { stdout } = await serve('--port', '0', '--grace', '50');
    expect(started).toHaveLength(1);
    const options = started[0]!;
    expect(options).toMatchObject({ port: 0, gracePeriodMs: 50, host: '127.0.0.1' });
    const store = new MemoryStore();
    const agencies = options.fallbackAgencies!(store);
    expect(agencies.map((a) => a.name)).toEqual(['demo']);
    expect(agencies[0]!.threads.store).toBe(store);
    expect(stdout).toContain('listening on http://127.0.0.1:1');
    expect(stdout).toContain('agencies:  x');
    expect(stdout).toContain('ensembles: e1');
  });

  it('passes no fallback with --no-demo, and the config path when given', async () => {
    await serve('--no-demo', '--config', 'somewhere/colloquy.yaml');
    expect(started[0]!.fallbackAgencies).toBeUndefined();
    expect(started[0]!.config).toBe('somewhere/colloquy.yaml');
  });

  it('refuses a port or grace that is not a whole number, before starting', async () => {
    const port = await serve('--port', 'eighty');
    expect(port.stderr).toContain('[CONFIG_INVALID]: --port "eighty" is not a whole number');
    const grace = await serve('--grace', '-5');
    expect(grace.stderr).toContain('--grace "-5" is not a whole number');
    expect(started).toHaveLength(0);
    expect(process.exitCode).toBe(1);
  });
});
