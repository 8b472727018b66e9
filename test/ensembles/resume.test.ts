import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import { WorkflowThread } from '../../src/ensembles/workflowThread.js';
import { resumeEnsemble, resumeModels } from './fixtures/resumeEnsemble.js';
import { comparable, tempDir } from './helpers.js';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'runChild.ts');

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached in time');
}

describe('resume after SIGKILL', () => {
  it('continues from the last finished turn, re-runs no finished agent, and ends like an uninterrupted run', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'runs.db');
    const proc = spawn(process.execPath, ['--import', 'tsx', child, db, 'run-1', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      proc.on('exit', (_code, signal) => resolve(signal)),
    );
    const reader = new SqliteStore({ path: db });
    try {
      // Kill in the middle of step 1: writer and side_a are checkpointed, side_b is still sleeping.
      await waitFor(async () => {
        const workflow = await WorkflowThread.load(reader, 'run-1').catch(() => null);
        const finished = workflow?.state.execution.currentStep?.finished ?? {};
        return 'side_a' in finished && 'writer' in finished;
      }, 20_000).catch((error: Error) => {
        throw new Error(`${error.message}; child stderr: ${stderr}`);
      });
      proc.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      const interrupted = await WorkflowThread.load(reader, 'run-1');
      expect(interrupted!.state.data.status).toBe('running');
      expect(interrupted!.state.conversation.turn_count).toBe(0);

      const resumed = await runEnsemble(resumeEnsemble(dir), {
        store: reader,
        runId: 'run-1',
        resume: true,
        createModel: resumeModels,
      });
      const runs = readFileSync(path.join(dir, 'runs.log'), 'utf8').trim().split('\n');
      expect(runs.filter((line) => line === 'side_a 1')).toHaveLength(1);
      // side_b was in flight: its orphaned process (the killed parent could not stop it) and the
      // resumed run both ran it; every other execution happened exactly once.
      expect(runs.filter((line) => line === 'side_b 1').length).toBeLessThanOrEqual(2);
      const others = runs.filter((line) => line !== 'side_b 1');
      expect(new Set(others).size).toBe(others.length);

      const baseline = await runEnsemble(resumeEnsemble(tempDir()), {
        store: new MemoryStore(),
        createModel: resumeModels,
      });
      expect(comparable(resumed)).toEqual(comparable(baseline));
      expect(resumed.completion_reason).toBe('completed');
      expect(
        resumed.conversation_history
          .filter((turn) => turn.agent_name === 'writer')
          .map((turn) => turn.output_data),
      ).toEqual([{ draft: 1 }, { draft: 2 }, { draft: 3 }]);
      // Resuming a finished run returns its stored result.
      expect(
        await runEnsemble(resumeEnsemble(dir), {
          store: reader,
          resume: 'run-1',
          createModel: resumeModels,
        }),
      ).toEqual(resumed);
    } finally {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await reader.close();
    }
  });
});
