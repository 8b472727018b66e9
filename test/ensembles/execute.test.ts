import { describe, expect, it } from 'vitest';
import { executeAgent } from '../../src/ensembles/execute.js';
import type { ExecuteAgentOptions } from '../../src/ensembles/execute.js';
import { createConversationState } from '../../src/ensembles/state.js';
import { createBook } from '../../src/ensembles/scheduler.js';
import { WorkflowThread } from '../../src/ensembles/workflowThread.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

async function options(
  yaml: string,
  dir: string,
  extra: Partial<ExecuteAgentOptions> = {},
): Promise<ExecuteAgentOptions> {
  const ensemble = ensembleFrom(yaml, dir);
  const store = extra.workflow?.store ?? new MemoryStore();
  const workflow =
    extra.workflow ??
    (await WorkflowThread.create(store, 'exec', {
      conversation: createConversationState(),
      data: {
        status: 'running',
        ensemble: ensemble.name,
        input: '',
        book: createBook(),
        elapsed_ms: 0,
      },
    }));
  return {
    agent: ensemble.agents[0]!,
    ensemble,
    input: { input: 'task', context: {} },
    state: createConversationState(),
    workflow,
    baseDir: dir,
    signal: new AbortController().signal,
    remainingMs: 10_000,
    ...extra,
  };
}

describe('executeAgent', () => {
  it('returns the output, timing and stderr of a script agent', async () => {
    const dir = tempDir();
    const script = writeScript(
      dir,
      'ok.js',
      `process.stderr.write('note'); reply({ success: true, data: { got: msg.input } });`,
    );
    const outcome = await executeAgent(
      await options(`name: e\nagents:\n  - { name: s, script: ${script} }\n`, dir),
    );
    expect(outcome).toMatchObject({ output_data: { got: 'task' }, stderr: 'note' });
    expect(outcome.status).toBeUndefined();
    expect(outcome.execution_time).toBeGreaterThan(0);
    expect(Date.parse(outcome.timestamp)).not.toBeNaN();
  });

  it('an llm-orc script that reports success: false fails, and what it printed is kept as its output', async () => {
    const dir = tempDir();
    const script = writeScript(
      dir,
      'no.js',
      `reply({ success: false, error: 'no such file', path: '/nowhere' });`,
    );
    const outcome = await executeAgent(
      await options(
        `name: e\nscript_protocol: llm-orc\nagents:\n  - { name: s, script: ${script} }\n`,
        dir,
      ),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/reported "success": false: no such file/);
    expect(outcome.output_data).toEqual({
      success: false,
      error: 'no such file',
      path: '/nowhere',
    });
  });

  it('a script that replies success: false fails, keeping what it printed', async () => {
    const dir = tempDir();
    const script = writeScript(dir, 'no.js', `reply({ success: false, error: 'bad' });`);
    const outcome = await executeAgent(
      await options(`name: e\nagents:\n  - { name: s, script: ${script} }\n`, dir),
    );
    expect(outcome).toMatchObject({
      status: 'failed',
      output_data: { success: false, error: 'bad' },
    });
    expect(outcome.error).toMatch(/"success": false: bad\. It printed: /);
  });

  it('an input error fails the agent without running it', async () => {
    const dir = tempDir();
    const outcome = await executeAgent({
      ...(await options(`name: e\nagents:\n  - { name: s, script: ./never-run.js }\n`, dir)),
      input: { input: '', context: {}, input_error: 'input_key "k" is missing' },
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      error: 'Agent "s" failed: input_key "k" is missing',
      output_data: {},
    });
  });

  it('a malformed agent request fails the agent and keeps its stderr', async () => {
    const dir = tempDir();
    const script = writeScript(
      dir,
      'bad.js',
      `process.stderr.write('asked'); reply({ success: true, data: {}, agent_requests: [42] });`,
    );
    const outcome = await executeAgent(
      await options(`name: e\nagents:\n  - { name: s, script: ${script} }\n`, dir),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/agent_requests\[0\] is 42/);
    expect(outcome.stderr).toBe('asked');
  });

  it('a sub-ensemble agent without a child runner is a clear failure', async () => {
    const dir = tempDir();
    const outcome = await executeAgent(
      await options(`name: e\nagents:\n  - { name: sub, ensemble: other }\n`, dir),
    );
    expect(outcome.error).toMatch(/sub-ensembles need runEnsemble to run them/);
  });

  it('a store failure while saving an LLM turn is not the agent`s failure: the save rejects', async () => {
    const dir = tempDir();
    const store = new MemoryStore();
    const workflow = await WorkflowThread.create(store, 'exec-store', {
      conversation: createConversationState(),
      data: { status: 'running', ensemble: 'e', input: '', book: createBook(), elapsed_ms: 0 },
    });
    const base = await options(`name: e\nagents:\n  - { name: w, model_profile: p }\n`, dir, {
      workflow,
    });
    store.append = async () => {
      throw new Error('database is locked');
    };
    // The turn's items are staged; the step's save writes them, and its failure is thrown.
    const outcome = await executeAgent({
      ...base,
      model: async () => ({ model: new ScriptedModel(['hi']) }),
    });
    expect(outcome.status).toBeUndefined();
    expect(await workflow.version('w')).toBe(2);
    await expect(workflow.save(workflow.state, 'step', false)).rejects.toThrow(
      'database is locked',
    );
    expect(await store.readItems('exec-store::w')).toHaveLength(0);
  });
});
