import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { AgentModels, defaultCreateModel } from '../../src/ensembles/agentModels.js';
import { RunCheckpoints } from '../../src/ensembles/checkpoint.js';
import type { EnsembleEvent } from '../../src/ensembles/events.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import type { AgentOutcome } from '../../src/ensembles/runState.js';
import { createBook } from '../../src/ensembles/scheduler.js';
import type { Ensemble } from '../../src/ensembles/schema.js';
import { createConversationState, recordTurn } from '../../src/ensembles/state.js';
import { prepareStep, recordStep, runStep } from '../../src/ensembles/step.js';
import type { StepContext } from '../../src/ensembles/step.js';
import { WorkflowThread } from '../../src/ensembles/workflowThread.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { tempDir, writeScript } from './helpers.js';

/** A step context over a fresh run of `yaml` in a MemoryStore (nothing is run unless asked). */
async function contextOf(yaml: string, deadline = performance.now() + 60_000, baseDir?: string) {
  const ensemble: Ensemble = parseEnsemble(yaml, baseDir ? { baseDir } : {});
  const store = new MemoryStore();
  const workflow = await WorkflowThread.create(store, 'r', {
    conversation: createConversationState(),
    data: {
      status: 'running',
      ensemble: ensemble.name,
      input: 'task',
      book: createBook(),
      elapsed_ms: 0,
    },
  });
  const checkpoints = new RunCheckpoints(workflow);
  const events: EnsembleEvent[] = [];
  const context: StepContext = {
    ensemble,
    checkpoints,
    conversation: workflow.conversation(),
    models: new AgentModels(ensemble, undefined, defaultCreateModel, {}),
    limit: pLimit(4),
    deadline,
    emit: (event) => events.push(event),
  };
  return { context, store, workflow, events };
}

/** Records a successful turn of `agent` with `output` in the committed conversation. */
function ran(context: StepContext, agent: string, output: Record<string, unknown>): void {
  recordTurn(context.conversation, {
    agent_name: agent,
    input_data: { input: 'task', context: {} },
    output_data: output,
    execution_time: 0,
    timestamp: 't',
  });
}

const outcome = (
  output: Record<string, unknown>,
  extra: Partial<AgentOutcome> = {},
): AgentOutcome => ({
  output_data: output,
  execution_time: 0.1,
  timestamp: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('prepareStep', () => {
  it('numbers the step after the committed ones and records each agent`s input', async () => {
    const { context } = await contextOf(
      'name: p\nagents:\n  - { name: a, script: ./a.js }\n  - { name: b, script: ./b.js, depends_on: [a] }\n',
    );
    ran(context, 'a', { x: 1 });
    context.checkpoints.head.execution.step = 4;
    const step = await prepareStep(context, ['b']);
    expect(step.step).toBe(5);
    expect(step.agents).toEqual(['b']);
    expect(step.finished).toEqual({});
    expect(step.inputs.b).toEqual({
      input_data: { input: 'task', context: { a: { x: 1 } } },
      thread_version: 0,
    });
    // The open step is in the working head, so the next save records it.
    expect(context.checkpoints.head.execution.currentStep).toBe(step);
  });

  it('a false when: guard skips the agent, with the guard in its error', async () => {
    const { context } = await contextOf(
      "name: p\nagents:\n  - { name: a, script: ./a.js }\n  - { name: b, script: ./b.js, depends_on: [a], when: 'state.a.go == true' }\n",
    );
    ran(context, 'a', { go: false });
    const step = await prepareStep(context, ['b']);
    expect(step.finished.b).toMatchObject({
      status: 'skipped',
      error: 'its guard "when: state.a.go == true" is false',
      output_data: {},
    });
  });

  it('a true guard leaves the agent to run; a guard that cannot be evaluated fails it', async () => {
    const { context } = await contextOf(
      "name: p\nagents:\n  - { name: a, script: ./a.js }\n  - { name: b, script: ./b.js, depends_on: [a], when: 'state.a.go == true' }\n" +
        "  - { name: c, script: ./c.js, depends_on: [a], when: 'state.a.go.deeper.still' }\n",
    );
    ran(context, 'a', { go: true });
    const step = await prepareStep(context, ['b', 'c']);
    expect(step.finished.b).toBeUndefined();
    expect(step.finished.c).toMatchObject({ status: 'failed' });
    expect(step.finished.c!.error).toMatch(/^its guard "when: state.a.go.deeper.still" failed: /);
  });

  it('skips an agent whose every dependency was skipped', async () => {
    const { context } = await contextOf(
      'name: p\nagents:\n  - { name: a, script: ./a.js }\n  - { name: b, script: ./b.js, depends_on: [a] }\n',
    );
    recordTurn(context.conversation, {
      agent_name: 'a',
      input_data: { input: 'task', context: {} },
      output_data: {},
      execution_time: 0,
      timestamp: 't',
      status: 'skipped',
      error: 'guard',
    });
    const step = await prepareStep(context, ['b']);
    expect(step.finished.b).toMatchObject({
      status: 'skipped',
      error: 'every dependency was skipped',
    });
  });

  it('records an LLM agent`s sub-thread version, and each fan_out instance`s', async () => {
    const { context, workflow } = await contextOf(
      'name: p\nagents:\n  - { name: list, script: ./l.js }\n' +
        '  - { name: say, model_profile: m, depends_on: [list], fan_out: true, input_key: items }\n' +
        '  - { name: talk, model_profile: m }\n',
    );
    await workflow.append('say#1', [{ id: '1', item: { role: 'user', content: 'x' } }]);
    await workflow.append('talk', [
      { id: '1', item: { role: 'user', content: 'x' } },
      { id: '2', item: { role: 'user', content: 'y' } },
    ]);
    ran(context, 'list', { items: ['a', 'b', 'c'] });
    const step = await prepareStep(context, ['say', 'talk']);
    expect(step.inputs.say!.fan_out_versions).toEqual([0, 1, 0]);
    expect(step.inputs.talk!.thread_version).toBe(2);
    expect(step.inputs.talk!.fan_out_versions).toBeUndefined();
  });

  it('a fan_out agent without an array upstream records no instance versions', async () => {
    const { context } = await contextOf(
      'name: p\nagents:\n  - { name: list, script: ./l.js }\n' +
        '  - { name: say, model_profile: m, depends_on: [list], fan_out: true, input_key: items }\n',
    );
    ran(context, 'list', { items: 'not an array' });
    const step = await prepareStep(context, ['say']);
    expect(step.inputs.say!.fan_out_versions).toEqual([]);
  });
});

describe('recordStep', () => {
  const yaml =
    'name: r\nagents:\n  - { name: a, script: ./a.js }\n  - { name: b, script: ./b.js, on_failure: stop }\n' +
    '  - { name: c, script: ./c.js, on_failure: stop }\n  - { name: d, script: ./d.js, depends_on: [a] }\n';

  it('records finished agents as turns in file order, whatever order they finished in', async () => {
    const { context } = await contextOf(yaml);
    const step = await prepareStep(context, ['a', 'b', 'c']);
    step.finished.c = outcome({ c: 3 });
    step.finished.a = outcome({ a: 1 });
    step.finished.b = outcome({ b: 2 });
    const { turns, stop } = recordStep(context, step);
    expect(stop).toBeUndefined();
    expect(turns.map((turn) => [turn.turn_number, turn.agent_name])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    expect(turns[0]!.input_data).toEqual(step.inputs.a!.input_data);
    expect(context.conversation.turn_count).toBe(3);
    expect(context.checkpoints.head.execution).toEqual({ step: 1, currentStep: null });
    expect(context.checkpoints.head.conversation.latest_outputs).toEqual({
      a: { a: 1 },
      b: { b: 2 },
      c: { c: 3 },
    });
  });

  it('leaves unfinished agents out and reports the first on_failure: stop failure in file order', async () => {
    const { context } = await contextOf(yaml);
    const step = await prepareStep(context, ['a', 'b', 'c']);
    step.finished.c = outcome({}, { status: 'failed', error: 'c broke', stderr: 'trace c' });
    step.finished.b = outcome({}, { status: 'failed', error: 'b broke' });
    const { turns, stop } = recordStep(context, step);
    expect(turns.map((turn) => turn.agent_name)).toEqual(['b', 'c']);
    expect(stop).toEqual({ agent: 'b', message: 'b broke' });
    expect(context.conversation.failed_agents).toEqual(['b', 'c']);
  });

  it('a failure of an agent that does not stop the run is recorded, with no stop', async () => {
    const { context } = await contextOf(yaml);
    const step = await prepareStep(context, ['a']);
    step.finished.a = outcome({}, { status: 'failed', error: 'a broke', stderr: 'e' });
    const { turns, stop } = recordStep(context, step);
    expect(stop).toBeUndefined();
    expect(turns[0]).toMatchObject({ status: 'failed', error: 'a broke', stderr: 'e' });
  });

  it('marks dependencies consumed from the state before the step, and files agent requests', async () => {
    const { context } = await contextOf(yaml);
    ran(context, 'a', { a: 0 });
    const step = await prepareStep(context, ['a', 'd']);
    step.finished.a = outcome(
      { a: 1 },
      { agent_requests: [{ target_agent_type: 'c', parameters: { why: 'check' }, priority: 2 }] },
    );
    step.finished.d = outcome({ d: 1 });
    recordStep(context, step);
    const book = context.checkpoints.data.book;
    // d consumed a's first output (the one it was given), not the one recorded in this step.
    expect(book.consumed.d).toEqual({ a: 1 });
    expect(book.triggers.d).toEqual({ a: 1 });
    expect(book.requests.c).toEqual([{ from: 'a', parameters: { why: 'check' }, priority: 2 }]);
  });
});

describe('runStep', () => {
  it('runs nothing when every agent of the step already finished (a resumed step)', async () => {
    const { context, events } = await contextOf(
      'name: s\nagents:\n  - { name: a, script: ./missing-script.js }\n',
    );
    const step = await prepareStep(context, ['a']);
    step.finished.a = outcome({ done: true });
    expect(await runStep(context, step)).toEqual({ timedOut: false });
    expect(events.map((event) => event.type)).toEqual(['step_started']);
    expect(step.finished.a).toEqual(outcome({ done: true }));
  });

  it('at the deadline it stops the running agents, records none of them and reports the timeout', async () => {
    const dir = tempDir();
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 5000);`,
    );
    const { context, events } = await contextOf(
      `name: s\nagents:\n  - { name: a, script: ${slow} }\n`,
      performance.now() + 300,
      dir,
    );
    const step = await prepareStep(context, ['a']);
    const started = performance.now();
    expect(await runStep(context, step)).toEqual({ timedOut: true });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(step.finished).toEqual({});
    expect(events.map((event) => event.type)).toEqual(['step_started', 'agent_started']);
  });

  it('the caller`s abort stops it without calling it a timeout', async () => {
    const { context } = await contextOf(
      'name: s\nagents:\n  - { name: a, script: ./missing-script.js }\n',
    );
    const controller = new AbortController();
    controller.abort();
    const step = await prepareStep(context, ['a']);
    expect(await runStep({ ...context, signal: controller.signal }, step)).toEqual({
      timedOut: false,
    });
    expect(step.finished).toEqual({});
  });
});
