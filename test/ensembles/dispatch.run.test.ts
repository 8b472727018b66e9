// Running dispatch: agents: the target resolved from the committed state, the child run through
// the sub-ensemble runner, and every way a target can fail to resolve (an agent failure, not a
// crash).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_ENSEMBLE_DEPTH } from '../../src/ensembles/children.js';
import type { EnsembleEvent } from '../../src/ensembles/events.js';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { createEnsembleTracer } from '../../src/ensembles/tracing.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { traceStoreFor } from '../../src/stores/traceStores.js';
import { setupTracing, shutdownTracing } from '../../src/tracing/setup.js';
import { dispatchSeats, nestedDepth, tempDir, writeScript } from './helpers.js';

afterAll(() => shutdownTracing());

/** Writes `name.yaml` into dir and returns its path. */
function write(dir: string, name: string, yaml: string): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

/** A parent: route, then `seat` dispatching with `extra` keys, then `after` reading seat. */
function parent(dir: string, seat: string): string {
  const after = writeScript(
    dir,
    'after.js',
    `reply({ success: true, data: { saw: msg.context.seat ?? null, failed: msg.failed ?? null } });`,
  );
  return write(
    dir,
    'parent',
    `name: parent\ndefault_task: the task\nagents:\n  - { name: route, script: ./route.js }\n  - ${seat}\n  - { name: after, script: ${after}, depends_on: [seat] }\n`,
  );
}

async function run(file: string, events: EnsembleEvent[] = []) {
  return runEnsemble(await loadEnsemble(file), {
    store: new MemoryStore(),
    runId: 'p',
    onEvent: (event) => events.push(event),
  });
}

describe('dispatch targets', () => {
  it('a literal target runs that ensemble with the task; the output is the sub-ensemble shape', async () => {
    const dir = dispatchSeats('{}');
    const result = await run(parent(dir, '{ name: seat, dispatch: beta, depends_on: [route] }'));
    expect(result.completion_reason).toBe('completed');
    expect(result.final_state.seat).toEqual({
      completion_reason: 'completed',
      turn_count: 1,
      final_state: { answer: { seat: 'beta', got: 'the task' } },
      // llm-orc's single deliverable: the terminal agent's response text.
      deliverable: '{"seat":"beta","got":"the task"}',
    });
    const turn = result.conversation_history.find((t) => t.agent_name === 'seat')!;
    expect(turn.input_data.dispatch).toEqual({ reference: 'beta', target: 'beta' });
  });

  it('a ${dep.field} target is read from the dependency`s output; events name the target', async () => {
    const dir = dispatchSeats(`{ target: 'alpha', other: 'beta' }`);
    const events: EnsembleEvent[] = [];
    const result = await run(
      parent(dir, `{ name: seat, dispatch: '\${route.target}', depends_on: [route] }`),
      events,
    );
    expect(result.failed_agents).toEqual([]);
    expect(result.final_state.after).toMatchObject({
      saw: { final_state: { answer: { seat: 'alpha', got: 'the task' } } },
    });
    expect(events.filter((event) => event.type === 'agent_dispatched')).toEqual([
      {
        type: 'agent_dispatched',
        agent: 'seat',
        reference: '${route.target}',
        target: 'alpha',
        ensemble: 'alpha',
        child_run_id: 'p/seat/1',
      },
    ]);
    // Between the agent's start and finish, as a sub-ensemble's child run.
    const order = events
      .filter((event) => 'agent' in event && event.agent === 'seat')
      .map((event) => event.type);
    expect(order).toEqual(['agent_started', 'agent_dispatched', 'agent_finished']);
  });

  it('input_key gives the child the selected value: text as is, other values as JSON', async () => {
    const dir = dispatchSeats(`{ target: 'beta', brief: 'just this', spec: { n: 1 } }`);
    const text = await run(
      parent(
        dir,
        `{ name: seat, dispatch: '\${route.target}', depends_on: [route], input_key: brief }`,
      ),
    );
    expect(text.final_state.seat).toMatchObject({
      final_state: { answer: { seat: 'beta', got: 'just this' } },
    });
    const json = await run(
      parent(
        dir,
        `{ name: seat, dispatch: '\${route.target}', depends_on: [route], input_key: spec }`,
      ),
    );
    expect(json.final_state.seat).toMatchObject({ final_state: { answer: { got: '{"n":1}' } } });
  });

  it('an input_key the dependency lacks fails the agent, as for other agents', async () => {
    const dir = dispatchSeats(`{ target: 'beta' }`);
    const result = await run(
      parent(
        dir,
        `{ name: seat, dispatch: '\${route.target}', depends_on: [route], input_key: nope }`,
      ),
    );
    expect(result.failed_agents).toEqual(['seat']);
    expect(result.conversation_history[1]!.error).toMatch(/input_key "nope" is not a key/);
  });

  it('fan_out dispatches one child run per item, each under its own run id', async () => {
    const dir = dispatchSeats(`{ target: 'alpha', items: ['x', 'y'] }`);
    const events: EnsembleEvent[] = [];
    const result = await run(
      parent(
        dir,
        `{ name: seat, dispatch: '\${route.target}', depends_on: [route], input_key: items, fan_out: true }`,
      ),
      events,
    );
    expect(result.final_state.seat).toMatchObject({
      results: [
        { final_state: { answer: { seat: 'alpha', got: 'x' } } },
        { final_state: { answer: { seat: 'alpha', got: 'y' } } },
      ],
      total: 2,
    });
    // The instances run in parallel: their events may come in either order.
    expect(
      events
        .flatMap((event) => (event.type === 'agent_dispatched' ? [event.child_run_id] : []))
        .sort(),
    ).toEqual(['p/seat/1#0', 'p/seat/1#1']);
  });

  it('runs through a custom resolveEnsemble like ensemble: agents', async () => {
    const dir = dispatchSeats(`{ target: 'virtual' }`);
    const seen: string[] = [];
    const file = parent(dir, `{ name: seat, dispatch: '\${route.target}', depends_on: [route] }`);
    const result = await runEnsemble(await loadEnsemble(file), {
      resolveEnsemble: (reference, from) => {
        seen.push(`${reference} from ${from.name}`);
        return loadEnsemble(path.join(dir, 'alpha.yaml'));
      },
    });
    expect(seen).toEqual(['virtual from parent']);
    expect(result.final_state.seat).toMatchObject({ final_state: { answer: { seat: 'alpha' } } });
  });
});

describe('targets that do not resolve fail the agent, and the run goes on', () => {
  const failure = async (routeData: string, seat?: string) => {
    const dir = dispatchSeats(routeData);
    const result = await run(
      parent(dir, seat ?? `{ name: seat, dispatch: '\${route.target}', depends_on: [route] }`),
    );
    expect(result.completion_reason).toBe('completed');
    expect(result.failed_agents).toEqual(['seat']);
    const turn = result.conversation_history.find((t) => t.agent_name === 'seat')!;
    // Its dependent still runs and sees the failure.
    expect(result.final_state.after).toEqual({ saw: null, failed: { seat: turn.error } });
    return turn;
  };

  it('an unknown ensemble: the agent, the reference, the value and the known ensembles', async () => {
    const turn = await failure(`{ target: 'gamma' }`);
    expect(turn.error).toMatch(
      /^Agent "seat" failed: its dispatch "\$\{route\.target\}" resolved to "gamma", which is not an ensemble it can run: Ensemble "gamma" was not found .* Known ensembles: alpha, beta, parent\.$/,
    );
    expect(turn.input_data.dispatch).toEqual({ reference: '${route.target}', target: 'gamma' });
  });

  it('a missing field names the keys the dependency has', async () => {
    const turn = await failure(`{ targte: 'alpha' }`);
    expect(turn.error).toBe(
      'Agent "seat" failed: its dispatch "${route.target}" did not resolve: the output of "route" has no target (its keys: targte). Known ensembles: alpha, beta, parent.',
    );
  });

  it('a value that is not a string', async () => {
    const turn = await failure(`{ target: 42 }`);
    expect(turn.error).toMatch(
      /its dispatch "\$\{route\.target\}" did not resolve: it is 42, which is not an ensemble name .*Known ensembles: alpha, beta, parent\.$/,
    );
  });

  it('a value that is a path, not a name (a model must not pick any file)', async () => {
    const turn = await failure(`{ target: '../alpha' }`);
    expect(turn.error).toMatch(
      /did not resolve: it is "\.\.\/alpha", which is not an ensemble name/,
    );
  });

  it('a dependency that failed', async () => {
    const dir = dispatchSeats('{}');
    writeScript(dir, 'route.js', `reply({ success: false, error: 'no route' });`);
    const result = await run(
      parent(dir, `{ name: seat, dispatch: '\${route.target}', depends_on: [route] }`),
    );
    expect(result.failed_agents).toEqual(['route', 'seat']);
    expect(result.conversation_history[1]!.error).toMatch(
      /its dispatch "\$\{route\.target\}" did not resolve: "route" failed \(Agent "route" failed: .*no route.*\)\./,
    );
  });

  it('a dispatched ensemble that ends in error fails the agent', async () => {
    const dir = dispatchSeats(`{ target: 'broken' }`);
    const bad = writeScript(dir, 'bad.js', `reply({ success: false, error: 'seat broke' });`);
    write(
      dir,
      'broken',
      `name: broken\non_failure: stop\nagents:\n  - { name: b, script: ${bad} }\n`,
    );
    const result = await run(
      parent(dir, `{ name: seat, dispatch: '\${route.target}', depends_on: [route] }`),
    );
    expect(result.failed_agents).toEqual(['seat']);
    expect(result.conversation_history[1]!.error).toMatch(
      /its dispatched ensemble "broken" ended with an error: .*seat broke/,
    );
  });

  it('timeout_seconds stops the dispatched run and fails the agent', async () => {
    const dir = dispatchSeats(`{ target: 'slow' }`);
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 5000);`,
    );
    write(dir, 'slow', `name: slow\nagents:\n  - { name: s, script: ${slow} }\n`);
    const result = await run(
      parent(
        dir,
        `{ name: seat, dispatch: '\${route.target}', depends_on: [route], timeout_seconds: 0.5 }`,
      ),
    );
    expect(result.failed_agents).toEqual(['seat']);
    expect(result.conversation_history[1]!.error).toMatch(
      /timeout_seconds \(0\.5s\); its dispatched ensemble run was stopped/,
    );
  });
});

describe('dispatch nesting', () => {
  it('an ensemble dispatching to itself stops at the depth limit', async () => {
    const dir = tempDir();
    writeScript(dir, 'route.js', `reply({ success: true, data: { target: 'self' } });`);
    const self = write(
      dir,
      'self',
      `name: self\nagents:\n  - { name: route, script: ./route.js }\n  - { name: again, dispatch: '\${route.target}', depends_on: [route] }\n`,
    );
    const result = await runEnsemble(await loadEnsemble(self), { store: new MemoryStore() });
    const { depth, deepest } = nestedDepth(result, 'again');
    expect(depth).toBe(MAX_ENSEMBLE_DEPTH);
    expect(deepest.failed_agents).toEqual(['again']);
    expect(result.completion_reason).toBe('completed');
  });
});

describe('tracing a dispatch', () => {
  it('the agent`s span records the reference, the target and the child run', async () => {
    setupTracing({ env: {} });
    const store = new MemoryStore();
    const tracer = await createEnsembleTracer({ store });
    const dir = dispatchSeats(`{ target: 'beta' }`);
    await runEnsemble(
      await loadEnsemble(
        parent(dir, `{ name: seat, dispatch: '\${route.target}', depends_on: [route] }`),
      ),
      { store, runId: 'traced', onEvent: tracer.onEvent },
    );
    await tracer.finish();
    const traces = await traceStoreFor(store);
    const [summary] = await traces.listTraces({ runId: 'traced' });
    const { spans } = (await traces.getTrace(summary!.traceId))!;
    expect(JSON.stringify(spans.find((span) => span.name === 'seat'))).toContain(
      '"dispatch":"${route.target}","target":"beta","childRunId":"traced/seat/1"',
    );
  });
});
