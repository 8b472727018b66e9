import { describe, expect, it } from 'vitest';
import { AgentRunError, runScriptAgent } from '../../src/ensembles/scriptAgent.js';
import { spawnHelperPid, useSpawnHelper } from '../../src/ensembles/spawnHelper.js';
import { tempDir, writeScript } from './helpers.js';

/** A script that replies with its parent's pid and the stdin it read. */
async function parentOf(dir: string): Promise<{ ppid: number; got: unknown }> {
  const run = await runScriptAgent({
    agent: 'ppid',
    command: './ppid.js',
    baseDir: dir,
    stdin: { input: 'hi' },
    env: { EXTRA: 'yes' },
    timeoutMs: 10_000,
  });
  return run.reply.data as { ppid: number; got: unknown };
}

function scriptDir(): string {
  const dir = tempDir();
  writeScript(
    dir,
    'ppid.js',
    `reply({ success: true, data: { ppid: process.ppid, got: [msg.input, process.env.EXTRA] } });`,
  );
  return dir;
}

describe('the script spawn helper', () => {
  it('spawns scripts from the helper process, with stdin and env passed through', async () => {
    useSpawnHelper(true);
    const dir = scriptDir();
    const { ppid, got } = await parentOf(dir);
    expect(spawnHelperPid()).toBeDefined();
    expect(ppid).toBe(spawnHelperPid());
    expect(ppid).not.toBe(process.pid);
    expect(got).toEqual(['hi', 'yes']);
  });

  it('reports a script that cannot start, as a direct spawn does', async () => {
    useSpawnHelper(true);
    const dir = scriptDir();
    const error = await runScriptAgent({
      agent: 'missing',
      command: '/bin/sh -c "exit 3"',
      baseDir: dir,
      stdin: {},
      timeoutMs: 10_000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentRunError);
    expect((error as Error).message).toMatch(/exited with code 3/);
  });

  it('spawns directly when turned off', async () => {
    useSpawnHelper(false);
    const dir = scriptDir();
    const { ppid } = await parentOf(dir);
    expect(ppid).toBe(process.pid);
    expect(spawnHelperPid()).toBeUndefined();
    useSpawnHelper(true);
  });

  it('falls back to a direct spawn when the helper dies', async () => {
    useSpawnHelper(true);
    const dir = scriptDir();
    await parentOf(dir);
    const pid = spawnHelperPid()!;
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => spawnHelperPid(), { timeout: 10_000 }).toBeUndefined();
    const { ppid } = await parentOf(dir);
    expect(ppid).toBe(process.pid);
  });
});
