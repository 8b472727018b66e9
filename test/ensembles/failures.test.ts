import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

/** Scripts: ok (echoes what failed upstream), bad (success: false), crash (exit 3), slow (2 s). */
function scripts(dir: string) {
  return {
    ok: writeScript(
      dir,
      'ok.js',
      `reply({ success: true, data: { ok: true, saw_failed: msg.failed ?? null, keys: Object.keys(msg.context) } });`,
    ),
    bad: writeScript(
      dir,
      'bad.js',
      `process.stderr.write('looked everywhere\\n'); reply({ success: false, error: 'no data source' });`,
    ),
    crash: writeScript(dir, 'crash.js', `process.stderr.write('boom\\n'); process.exit(3);`),
    slow: writeScript(
      dir,
      'slow.js',
      `setTimeout(() => reply({ success: true, data: {} }), 2000);`,
    ),
  };
}

describe('a failing agent', () => {
  it('is recorded with its message and stderr, and the run goes on with the agents not depending on it', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: f\nagents:\n  - { name: bad, script: ${s.bad} }\n  - { name: fine, script: ${s.ok} }\n  - { name: after_fine, script: ${s.ok}, depends_on: [fine] }\n`,
        dir,
      ),
    );
    expect(result.completion_reason).toBe('completed');
    expect(result.failed_agents).toEqual(['bad']);
    expect(result.error).toBeUndefined();
    const bad = result.conversation_history.find((turn) => turn.agent_name === 'bad')!;
    // What it printed is kept as its output, and shown in the message.
    expect(bad).toMatchObject({
      status: 'failed',
      output_data: { success: false, error: 'no data source' },
    });
    expect(bad.error).toMatch(/"success": false: no data source\. It printed: /);
    expect(bad.stderr).toBe('looked everywhere\n');
    expect(result.final_state).not.toHaveProperty('bad');
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual([
      'bad',
      'fine',
      'after_fine',
    ]);
  });

  it('its dependents see the failure in their input', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: f\nagents:\n  - { name: crash, script: ${s.crash} }\n  - { name: next, script: ${s.ok}, depends_on: [crash] }\n`,
        dir,
      ),
    );
    const next = result.conversation_history.find((turn) => turn.agent_name === 'next')!;
    expect(next.output_data.saw_failed).toEqual({
      crash: expect.stringMatching(/exited with code 3; stderr: boom/),
    });
    expect(next.input_data.failed).toEqual(next.output_data.saw_failed);
    expect(result.failed_agents).toEqual(['crash']);
  });

  it('or are skipped by a guard on the failures', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: f\nagents:\n  - { name: crash, script: ${s.crash} }\n  - { name: next, script: ${s.ok}, depends_on: [crash], when: '!has(failures.crash)' }\n  - { name: last, script: ${s.ok}, depends_on: [next] }\n`,
        dir,
      ),
    );
    const statuses = result.conversation_history.map((turn) => [turn.agent_name, turn.status]);
    // next is skipped by its guard, and last because every dependency was skipped (as llm-orc).
    expect(statuses).toEqual([
      ['crash', 'failed'],
      ['next', 'skipped'],
      ['last', 'skipped'],
    ]);
    expect(result.failed_agents).toEqual(['crash']);
  });

  it("that agent's own timeout is a failure too; the others finish", async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: f\nagents:\n  - { name: slow, script: ${s.slow}, timeout_seconds: 0.3 }\n  - { name: fine, script: ${s.ok} }\n`,
        dir,
      ),
    );
    expect(result.completion_reason).toBe('completed');
    expect(result.failed_agents).toEqual(['slow']);
    expect(result.conversation_history[0]!.error).toMatch(/did not finish within 0.3s/);
    expect(result.conversation_history[1]!.status).toBeUndefined();
  });

  it('a model error fails an LLM agent, recorded like a script failure', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: f\nagents:\n  - { name: w, model_profile: p }\n  - { name: fine, script: ${s.ok} }\n`,
        dir,
      ),
      { createModel: () => new ScriptedModel([{ error: 'rate limited' }]) },
    );
    expect(result.failed_agents).toEqual(['w']);
    expect(result.conversation_history[0]!.error).toMatch(/rate limited/);
    expect(result.completion_reason).toBe('completed');
  });

  it('on_failure: stop on the agent ends the run with error after its step', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const result = await runEnsemble(
      ensembleFrom(
        `name: f\nagents:\n  - { name: bad, script: ${s.bad}, on_failure: stop }\n  - { name: fine, script: ${s.ok} }\n  - { name: later, script: ${s.ok}, depends_on: [fine] }\n`,
        dir,
      ),
    );
    expect(result.completion_reason).toBe('error');
    expect(result.error).toMatchObject({
      agent: 'bad',
      message: expect.stringContaining('no data source'),
      stderr: 'looked everywhere\n',
    });
    // The step it failed in was committed; nothing ran after it.
    expect(result.conversation_history.map((turn) => turn.agent_name)).toEqual(['bad', 'fine']);
  });

  it('on_failure: stop on the ensemble applies to every agent, and an agent can override it', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const stopped = await runEnsemble(
      ensembleFrom(
        `name: f\non_failure: stop\nagents:\n  - { name: crash, script: ${s.crash} }\n`,
        dir,
      ),
    );
    expect(stopped.completion_reason).toBe('error');
    expect(stopped.error?.agent).toBe('crash');
    const continued = await runEnsemble(
      ensembleFrom(
        `name: f\non_failure: stop\nagents:\n  - { name: crash, script: ${s.crash}, on_failure: continue }\n  - { name: next, script: ${s.ok}, depends_on: [crash] }\n`,
        dir,
      ),
    );
    expect(continued.completion_reason).toBe('completed');
    expect(continued.turn_count).toBe(2);
  });

  it('emits agent_finished with success false and the error', async () => {
    const dir = tempDir();
    const s = scripts(dir);
    const events: { type: string; success?: boolean; error?: string }[] = [];
    await runEnsemble(
      ensembleFrom(`name: f\nagents:\n  - { name: bad, script: ${s.bad} }\n`, dir),
      {
        onEvent: (event) => events.push(event),
      },
    );
    expect(events.find((event) => event.type === 'agent_finished')).toMatchObject({
      success: false,
      error: expect.stringContaining('no data source'),
    });
  });
});
