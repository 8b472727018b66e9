import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentRunError, runScriptAgent } from '../../src/ensembles/scriptAgent.js';
import { tempDir } from './helpers.js';

describe('runScriptAgent and bundled primitives', () => {
  it('under the Colloquy protocol a primitive reads config and its object becomes data', async () => {
    const dir = tempDir();
    const run = await runScriptAgent({
      agent: 'save',
      command: 'primitives/file-ops/write_file.py',
      baseDir: dir,
      cwd: dir,
      stdin: {
        input: 'task',
        context: {},
        agent: 'save',
        config: { path: 'out.txt', content: 'hello' },
        conversation_state: {},
      },
      timeoutMs: 5000,
    });
    expect(run.reply).toEqual({
      success: true,
      data: { success: true, path: 'out.txt', size: 5, bytes_written: 5, error: null },
    });
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe('hello');
  });

  it('under the Colloquy protocol a primitive reporting success: false is an agent error with its output', async () => {
    const dir = tempDir();
    const error = await runScriptAgent({
      agent: 'read',
      command: 'primitives/file-ops/read_file.py',
      baseDir: dir,
      cwd: dir,
      stdin: { input: 't', context: {}, config: { path: 'absent.txt' }, conversation_state: {} },
      timeoutMs: 5000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentRunError);
    expect((error as Error).message).toMatch(
      /^Agent "read" failed: it reported "success": false: ENOENT/,
    );
    expect((error as AgentRunError).output).toMatchObject({ success: false, path: 'absent.txt' });
  });

  it('under the llm-orc protocol the primitive output is the agent output, its text the response', async () => {
    const dir = tempDir();
    const run = await runScriptAgent({
      agent: 'rep',
      command: 'primitives/control-flow/replicate_n_times.py',
      baseDir: dir,
      stdin: { input: 't', parameters: { replications: 2, seed: 7 }, context: {} },
      timeoutMs: 5000,
      protocol: 'llm-orc',
    });
    expect(run.reply.data).toMatchObject({ total_replications: 2, base_seed: 7 });
    expect(JSON.parse(run.stdout)).toEqual(run.reply.data);
  });

  it('output still flowing after the exit extends the grace period instead of being cut', async () => {
    const dir = tempDir();
    // The shell exits at once; a background child (same group, so killed at the end) keeps writing.
    const run = await runScriptAgent({
      agent: 'late',
      command: `(for i in 1 2 3 4 5; do echo line$i; sleep 0.1; done) & exit 0`,
      baseDir: dir,
      stdin: {},
      timeoutMs: 10_000,
      protocol: 'llm-orc',
      exitGraceMs: 250,
    });
    expect(run.stdout).toBe('line1\nline2\nline3\nline4\nline5');
  });
});
