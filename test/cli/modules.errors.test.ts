// Commands that load an agency module or listen on a port (chat, graph, dev, serve, worker, demo):
// their flag and module errors are one line with the code, exit 1, and nothing is started.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorLine, runCli } from './runCli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-cli-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noAgency = path.join(dir, 'plain.mjs');
writeFileSync(noAgency, 'export const answer = 42;\n');
const broken = path.join(dir, 'broken.mjs');
writeFileSync(broken, "throw new Error('module failed at load');\n");

describe('agency modules', () => {
  it('a module path that names no file lists the extensions tried and an example', async () => {
    for (const command of ['chat', 'graph']) {
      const run = await runCli(command, path.join(dir, 'absent'));
      expect(run.code, command).toBe(1);
      const { code, message } = errorLine(run);
      expect(code).toBe('CONFIG_INVALID');
      expect(message).toContain(`The agency module "${path.join(dir, 'absent')}" names no file`);
      expect(message).toContain('.ts, .mts, .js, .mjs');
      expect(message).toContain('absent/index.*');
    }
  });

  it('a module without an Agency export says how to export one', async () => {
    const run = await runCli('graph', noAgency);
    expect(run.code).toBe(1);
    expect(errorLine(run)).toEqual({
      code: 'CONFIG_INVALID',
      message: `${noAgency} exports no Agency. Export one: export default new Agency({ name: 'support', entryPoints: [...] }).`,
    });
  });

  it('MODULE#export naming a missing export lists the Agency exports (none here)', async () => {
    const run = await runCli('graph', `${noAgency}#support`);
    expect(run.code).toBe(1);
    expect(errorLine(run).message).toBe(
      `${noAgency} has no Agency export "support" (its Agency exports: none). Pass one of them after "#", e.g. plain.mjs#default.`,
    );
  });

  it('a module that throws while loading is reported with its message and the fix', async () => {
    const run = await runCli('chat', broken);
    expect(run.code).toBe(1);
    const { code, message } = errorLine(run);
    expect(code).toBe('CONFIG_INVALID');
    expect(message).toContain(
      `Could not import the agency module ${broken}: module failed at load.`,
    );
    expect(message).toContain('npx tsx');
  });

  it('graph refuses an unknown direction before loading anything', async () => {
    const run = await runCli('graph', path.join(dir, 'absent'), '--direction', 'up');
    expect(errorLine(run)).toEqual({
      code: 'CONFIG_INVALID',
      message: '--direction "up" is not a direction. Use one of: TD, LR, BT, RL.',
    });
  });
});

describe('server flags', () => {
  it('serve refuses a port or grace that is not a whole number', async () => {
    for (const [flag, value] of [
      ['--port', 'http'],
      ['--port', '-1'],
      ['--grace', '1.5'],
    ] as const) {
      const run = await runCli('serve', '--no-demo', flag, value);
      expect(run.code, `${flag} ${value}`).toBe(1);
      expect(errorLine(run)).toEqual({
        code: 'CONFIG_INVALID',
        message: `${flag} "${value}" is not a whole number. Pass e.g. ${flag} 8787.`,
      });
      expect(run.stdout).not.toContain('listening');
    }
  });

  it('serve --store needs --queue, and --queue needs --store', async () => {
    const storeOnly = await runCli('serve', '--store', 'redis://127.0.0.1:1');
    expect(errorLine(storeOnly)).toEqual({
      code: 'CONFIG_INVALID',
      message: '--store is for a queued server: pass --queue redis://... with it.',
    });
    const queueOnly = await runCli('serve', '--queue', 'redis://127.0.0.1:1');
    expect(errorLine(queueOnly).message).toMatch(/^--queue needs --store: /);
  });

  it('dev refuses a port outside 0..65535', async () => {
    for (const port of ['65536', 'eighty', '-3']) {
      const run = await runCli('dev', noAgency, '--port', port, '--no-watch');
      expect(run.code, port).toBe(1);
      expect(errorLine(run)).toEqual({
        code: 'CONFIG_INVALID',
        message: `--port "${port}" is not a port. Pass e.g. --port 8787.`,
      });
    }
  });

  it('worker needs both --queue and --store, and a shared store', async () => {
    const missing = await runCli('worker', '--queue', 'redis://127.0.0.1:1');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--store <url>' not specified");
    const local = await runCli(
      'worker',
      '--queue',
      'redis://127.0.0.1:1',
      '--store',
      'sqlite:x.db',
    );
    expect(errorLine(local).message).toMatch(
      /^--store "sqlite:x\.db" is not shared between processes/,
    );
  });
});

describe('demo flags', () => {
  it('--model and --profile together are refused', async () => {
    const run = await runCli(
      'demo',
      '--model',
      'gpt-4.1',
      '--profile',
      'fast',
      '--store',
      'memory',
    );
    expect(errorLine(run)).toEqual({
      code: 'CONFIG_INVALID',
      message: 'Pass either --model or --profile, not both.',
    });
  });
});
