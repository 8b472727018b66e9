import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ensembleFrom, tempDir, writeCounter, writeScript } from './helpers.js';

describe('requires_all', () => {
  it('true (default): waits for every dependency', async () => {
    const dir = tempDir();
    const script = writeCounter(dir);
    const ensemble = ensembleFrom(
      `name: all
agents:
  - { name: a, script: ${script} }
  - { name: b, script: ${script}, depends_on: [a] }
  - name: join
    script: ${script}
    depends_on: [a, b]
`,
      dir,
    );
    const result = await runEnsemble(ensemble);
    expect(result.conversation_history.map((turn) => [turn.turn_number, turn.agent_name])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'join'],
    ]);
  });

  it('false: any one such dependency is enough', async () => {
    const dir = tempDir();
    const script = writeCounter(dir);
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 10);`,
    );
    const ensemble = ensembleFrom(
      `name: any
agents:
  - { name: fast, script: ${script} }
  - { name: mid, script: ${slow}, depends_on: [fast] }
  - name: first
    script: ${script}
    depends_on:
      - { agent_name: fast, requires_all: false }
      - { agent_name: mid, requires_all: false }
`,
      dir,
    );
    const result = await runEnsemble(ensemble);
    const order = result.conversation_history.map((turn) => turn.agent_name);
    expect(order.slice(0, 3)).toEqual(['fast', 'mid', 'first']);
    expect(result.conversation_history[2]!.input_data).toEqual({
      input: '',
      context: { fast: { n: 1 } },
    });
  });

  it('steps run ready agents in parallel, up to the concurrency limit', async () => {
    const dir = tempDir();
    const sleep = writeScript(
      dir,
      'sleep.js',
      `setTimeout(() => reply({ success: true, data: {} }), 400);`,
    );
    const yaml = `name: par\nagents:\n${['a', 'b', 'c', 'd'].map((name) => `  - { name: ${name}, script: ${sleep} }`).join('\n')}\n`;
    let started = Date.now();
    await runEnsemble(ensembleFrom(yaml, dir), { concurrency: 4 });
    const parallel = Date.now() - started;
    started = Date.now();
    await runEnsemble(ensembleFrom(yaml, dir), { concurrency: 1 });
    const serial = Date.now() - started;
    expect(parallel).toBeLessThan(serial * 0.6);
    expect(serial).toBeGreaterThanOrEqual(1600);
  });
});
