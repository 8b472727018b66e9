import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

function scripts(dir: string) {
  return {
    list: writeScript(
      dir,
      'list.js',
      `reply({ success: true, data: { items: ['a', 'bb', 'fail', 'dddd'], note: 'x' } });`,
    ),
    each: writeScript(
      dir,
      'each.js',
      `if (msg.input === 'fail') { process.stderr.write('no'); process.exit(1); }
       const started = Date.now();
       setTimeout(() => require('node:fs').writeFileSync(require('node:path').join(${JSON.stringify(dir)}, 'span-' + msg.fan_out.index), JSON.stringify([started, Date.now()])) || reply({ success: true, data: { item: msg.input, len: msg.input.length, index: msg.fan_out.index, total: msg.fan_out.total } }), 900);`,
    ),
  };
}

describe('fan_out', () => {
  it('runs once per item in parallel and gathers results in order; failed items are listed', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: fan\nagents:\n  - { name: list, script: ${s.list} }\n  - { name: each, script: ${s.each}, depends_on: [list], fan_out: true, input_key: items }\n`,
        dir,
      ),
    );
    expect(result.final_state.each).toEqual({
      results: [
        { item: 'a', len: 1, index: 0, total: 4 },
        { item: 'bb', len: 2, index: 1, total: 4 },
        null,
        { item: 'dddd', len: 4, index: 3, total: 4 },
      ],
      total: 4,
      errors: [{ index: 2, error: expect.stringMatching(/exited with code 1/) }],
    });
    // A partial failure is not the agent's failure.
    expect(result.failed_agents).toEqual([]);
    // In parallel: every instance started before any of them ended (each takes 0.9 s, so that a
    // loaded machine starting processes slowly does not make them look sequential).
    const spans = [0, 1, 3].map(
      (index) => JSON.parse(readFileSync(path.join(dir, `span-${index}`), 'utf8')) as number[],
    );
    expect(Math.max(...spans.map(([start]) => start!))).toBeLessThan(
      Math.min(...spans.map(([, end]) => end!)),
    );
  });

  it('fails the agent when every instance fails, or when there is no array', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const none = writeScript(
      dir,
      'none.js',
      `reply({ success: true, data: { items: ['fail'] } });`,
    );
    const scalar = writeScript(dir, 'scalar.js', `reply({ success: true, data: { items: 3 } });`);
    const result = await runEnsemble(
      ensembleFrom(
        `name: fan\nagents:\n  - { name: none, script: ${none} }\n  - { name: scalar, script: ${scalar} }\n` +
          `  - { name: all_fail, script: ${s.each}, depends_on: [none], fan_out: true, input_key: items }\n` +
          `  - { name: no_array, script: ${s.each}, depends_on: [scalar], fan_out: true, input_key: items }\n`,
        dir,
      ),
    );
    expect(result.failed_agents).toEqual(['all_fail', 'no_array']);
    const byName = Object.fromEntries(result.conversation_history.map((t) => [t.agent_name, t]));
    expect(byName.all_fail!.error).toMatch(/every one of its 1 fan-out instances failed/);
    expect(byName.no_array!.error).toMatch(
      /fan_out needs an array, but input_key "items" of "scalar" is 3/,
    );
  });

  it('an empty array runs no instance and gathers nothing', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const empty = writeScript(dir, 'empty.js', `reply({ success: true, data: { items: [] } });`);
    const result = await runEnsemble(
      ensembleFrom(
        `name: fan\nagents:\n  - { name: empty, script: ${empty} }\n  - { name: each, script: ${s.each}, depends_on: [empty], fan_out: true, input_key: items }\n`,
        dir,
      ),
    );
    expect(result.final_state.each).toEqual({ results: [], total: 0 });
    expect(result.failed_agents).toEqual([]);
  });

  it('LLM instances each get their item and keep separate sub-threads; usage is summed', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: fan\nagents:\n  - { name: list, script: ${s.list} }\n  - { name: say, model_profile: p, depends_on: [list], fan_out: true, input_key: items }\n`,
        dir,
      ),
      {
        createModel: () =>
          new ScriptedModel(
            [
              (request) => {
                const text = JSON.stringify(request.input);
                const item = /Task: (\w+)/.exec(text)?.[1] ?? '?';
                return JSON.stringify({ said: item });
              },
            ],
            { repeatLast: true },
          ),
      },
    );
    expect((result.final_state.say as { results: unknown[] }).results).toEqual([
      { said: 'a' },
      { said: 'bb' },
      { said: 'fail' },
      { said: 'dddd' },
    ]);
    expect(result.usage.requests).toBe(4);
  });
});

describe('the ready-agent rule (ADR-005)', () => {
  it('an agent without dependencies and max_turns: 3 runs on each step until it ran 3 times', async () => {
    const dir = tempDir();
    const tick = writeScript(
      dir,
      'tick.js',
      `reply({ success: true, data: { n: (msg.conversation_state.agent_execution_count.tick ?? 0) + 1 } });`,
    );
    const ok = writeScript(dir, 'ok.js', `reply({ success: true, data: {} });`);
    const events: string[][] = [];
    const result = await runEnsemble(
      ensembleFrom(
        `name: ready\nagents:\n  - { name: tick, script: ${tick}, conversation: { max_turns: 3 } }\n  - { name: once, script: ${ok} }\n`,
        dir,
      ),
      { onEvent: (event) => event.type === 'step_started' && events.push(event.agents) },
    );
    expect(events).toEqual([['tick', 'once'], ['tick'], ['tick']]);
    expect(result.final_state.tick).toEqual({ n: 3 });
    expect(result.completion_reason).toBe('completed');
  });

  it('max_total_turns stops it first', async () => {
    const dir = tempDir();
    const ok = writeScript(dir, 'ok.js', `reply({ success: true, data: {} });`);
    const result = await runEnsemble(
      ensembleFrom(
        `name: ready\nagents:\n  - { name: tick, script: ${ok}, conversation: { max_turns: 9 } }\nconversation_limits: { max_total_turns: 2 }\n`,
        dir,
      ),
    );
    expect([result.completion_reason, result.turn_count]).toEqual(['max_total_turns', 2]);
  });
});
