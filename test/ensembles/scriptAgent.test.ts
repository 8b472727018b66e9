import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AgentRunError, runScriptAgent, splitCommand } from '../../src/ensembles/scriptAgent.js';
import { tempDir, writeScript } from './helpers.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie (reaped later by init) no longer runs: count it as gone.
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('runScriptAgent', () => {
  it('writes { input, context, conversation_state } on stdin and reads { success, data }; captures stderr', async () => {
    const dir = tempDir();
    const script = writeScript(
      dir,
      'echo.js',
      `process.stderr.write('note'); reply({ success: true, data: { got: msg } });`,
    );
    const run = await runScriptAgent({
      agent: 'echo',
      command: script,
      baseDir: dir,
      stdin: { input: 'hi', context: { a: 1 }, conversation_state: {} },
      timeoutMs: 5000,
    });
    // Colloquy's fields, and llm-orc's added (a first-level script: input, parameters, context).
    expect(run.reply.data).toEqual({
      got: {
        input: 'hi',
        context: { a: 1 },
        conversation_state: {},
        agent: 'echo',
        parameters: {},
        agent_name: 'echo',
        input_data: 'hi',
        dependencies: { a: { response: '1', status: 'success' } },
      },
    });
    expect(run.stderr).toBe('note');
  });

  it('a reply that is not JSON is kept as text: { response }', async () => {
    const dir = tempDir();
    const script = writeScript(dir, 'text.js', `process.stdout.write('hello');`);
    const run = await runScriptAgent({
      agent: 'text',
      command: script,
      baseDir: dir,
      stdin: {},
      timeoutMs: 5000,
    });
    expect(run.reply.data).toEqual({ response: 'hello' });
  });

  it('a non-zero exit is an agent error that includes stderr', async () => {
    const dir = tempDir();
    const script = writeScript(dir, 'exit.js', `process.stderr.write('boom'); process.exit(3);`);
    const error = await runScriptAgent({
      agent: 'exit',
      command: script,
      baseDir: dir,
      stdin: {},
      timeoutMs: 5000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentRunError);
    expect((error as AgentRunError).message).toMatch(/exited with code 3; stderr: boom/);
    expect((error as AgentRunError).stderr).toBe('boom');
  });

  it('spawns without a shell: metacharacters are plain arguments', async () => {
    const dir = tempDir();
    const script = writeScript(
      dir,
      'args.js',
      `reply({ success: true, data: { argv: process.argv.slice(2) } });`,
    );
    const run = await runScriptAgent({
      agent: 'args',
      command: `${script} '$(touch x)' ; rm`,
      baseDir: dir,
      stdin: {},
      timeoutMs: 5000,
    });
    expect(run.reply.data).toEqual({ argv: ['$(touch x)', ';', 'rm'] });
    expect(splitCommand(`a "b c" 'd'`)).toEqual(['a', 'b c', 'd']);
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'grandchild.pid');
    const script = writeScript(
      dir,
      'spawner.js',
      `const { spawn } = await import('node:child_process');
       const fs = await import('node:fs');
       const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       fs.writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
       setInterval(() => {}, 1000);`,
    );
    let leader = 0;
    const started = Date.now();
    const error = await runScriptAgent({
      agent: 'spawner',
      command: script,
      baseDir: dir,
      stdin: {},
      timeoutMs: 800,
      onSpawn: (pid) => (leader = pid),
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /did not finish within 0.8s and was killed with its process group/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await vi.waitFor(() => {
      expect(alive(leader)).toBe(false);
      expect(alive(grandchild)).toBe(false);
    });
  });
});
