import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ensembleFrom, tempDir, writeCounter, writeScript } from './helpers.js';

function loop(dir: string, limits: string, extra = '') {
  const script = writeCounter(dir);
  return ensembleFrom(
    `name: loop
agents:
  - name: ping
    script: ${script}
    depends_on:
      - agent_name: pong
        condition: 'true'
        max_executions: 100
    conversation: { max_turns: 100, triggers_conversation: true }
  - name: pong
    script: ${script}
    depends_on:
      - agent_name: ping
        max_executions: 100
    conversation: { max_turns: 100 }
${extra}conversation_limits:
${limits}`,
    dir,
  );
}

describe('completion reasons and limits', () => {
  it('completed: a DAG ends when every agent has run', async () => {
    const dir = tempDir();
    const script = writeCounter(dir);
    const ensemble = ensembleFrom(
      `name: dag\nagents:\n  - { name: a, script: ${script} }\n  - { name: b, script: ${script}, depends_on: [a] }\n`,
      dir,
    );
    const result = await runEnsemble(ensemble);
    expect(result.completion_reason).toBe('completed');
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual(['a', 'b']);
  });

  it('max_total_turns: a conversation stops at the global turn limit', async () => {
    const dir = tempDir();
    const result = await runEnsemble(loop(dir, '  max_total_turns: 5\n'));
    expect(result.completion_reason).toBe('max_total_turns');
    expect(result.turn_count).toBe(5);
  });

  it('max_agent_executions: the global per-agent limit stops the conversation', async () => {
    const dir = tempDir();
    const result = await runEnsemble(
      loop(dir, '  max_total_turns: 50\n  max_agent_executions: { ping: 2 }\n'),
    );
    expect(result.completion_reason).toBe('max_agent_executions');
    expect(result.agent_execution_count).toEqual({ ping: 2, pong: 2 });
  });

  it('completed: an agent that used up its own max_turns is not ready (ADR-005), not limited', async () => {
    const dir = tempDir();
    const ensemble = loop(dir, '  max_total_turns: 50\n');
    ensemble.agents[1]!.conversation.max_turns = 3;
    const result = await runEnsemble(ensemble);
    expect(result.completion_reason).toBe('completed');
    expect(result.agent_execution_count.pong).toBe(3);
  });

  it('an ensemble that declares no conversation has no turn limit: a 25-agent chain in an llm-orc project runs every agent', async () => {
    const dir = tempDir();
    const folder = path.join(dir, '.llm-orc', 'ensembles');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'step.sh'), 'echo "step $AGENT_NAME"\n');
    const agents = Array.from({ length: 25 }, (_, i) =>
      i === 0
        ? `  - { name: a0, script: step.sh }`
        : `  - { name: a${i}, script: step.sh, depends_on: [a${i - 1}] }`,
    );
    const file = path.join(folder, 'chain.yaml');
    writeFileSync(file, `name: chain\nagents:\n${agents.join('\n')}\n`);
    const ensemble = await loadEnsemble(file);
    expect(ensemble.conversation_limits.max_total_turns).toBeUndefined();
    const result = await runEnsemble(ensemble);
    expect(result.completion_reason).toBe('completed');
    expect(result.turn_count).toBe(25);
    expect(result.failed_agents).toEqual([]);
  });

  it('ADR-005 default of 20 turns applies once an agent declares conversation:', () => {
    const dir = tempDir();
    const script = writeCounter(dir);
    const plain = ensembleFrom(`name: p\nagents:\n  - { name: a, script: ${script} }\n`, dir);
    const talking = ensembleFrom(
      `name: t\nagents:\n  - { name: a, script: ${script}, conversation: { max_turns: 2 } }\n`,
      dir,
    );
    const declared = ensembleFrom(
      `name: d\nagents:\n  - { name: a, script: ${script} }\nconversation_limits: { max_total_turns: 7 }\n`,
      dir,
    );
    expect(plain.conversation_limits.max_total_turns).toBeUndefined();
    expect(talking.conversation_limits.max_total_turns).toBe(20);
    expect(declared.conversation_limits.max_total_turns).toBe(7);
  });

  it('max_executions of a dependency bounds how often it re-triggers', async () => {
    const dir = tempDir();
    const ensemble = loop(dir, '  max_total_turns: 50\n');
    ensemble.agents[0]!.depends_on[0]!.max_executions = 1;
    const result = await runEnsemble(ensemble);
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual([
      'ping',
      'pong',
      'ping',
      'pong',
    ]);
    // An exhausted dependency is not a limit that stopped a ready agent.
    expect(result.completion_reason).toBe('completed');
  });

  it('timeout: the run stops at timeout_seconds and kills the running agent', async () => {
    const dir = tempDir();
    const slow = writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 10000);`,
    );
    const ensemble = ensembleFrom(
      `name: t\nagents:\n  - { name: slow, script: ${slow} }\nconversation_limits: { timeout_seconds: 0.5 }\n`,
      dir,
    );
    const started = Date.now();
    const result = await runEnsemble(ensemble);
    expect(result.completion_reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('no_runnable_agents: nothing can start', async () => {
    const dir = tempDir();
    const script = writeCounter(dir);
    const ensemble = ensembleFrom(
      `name: stuck\nagents:\n  - name: a\n    script: ${script}\n    depends_on: [{ agent_name: b, condition: 'true' }]\n  - { name: b, script: ${script}, depends_on: [a] }\n`,
      dir,
    );
    const result = await runEnsemble(ensemble);
    expect(result.completion_reason).toBe('no_runnable_agents');
    expect(result.turn_count).toBe(0);
  });

  it('error: a failing agent with on_failure: stop ends the run, naming the agent and its message', async () => {
    const dir = tempDir();
    const bad = writeScript(dir, 'bad.js', `reply({ success: false, error: 'no data source' });`);
    const ensemble = ensembleFrom(
      `name: e\nagents:\n  - { name: broken, script: ${bad}, on_failure: stop }\n`,
      dir,
    );
    const result = await runEnsemble(ensemble);
    expect(result.completion_reason).toBe('error');
    expect(result.error?.agent).toBe('broken');
    expect(result.error?.message).toContain('no data source');
  });
});
