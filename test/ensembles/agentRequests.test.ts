import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  fileAgentRequests,
  parseAgentRequests,
  resolveTarget,
} from '../../src/ensembles/agentRequests.js';
import { parseEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { createBook } from '../../src/ensembles/scheduler.js';
import { ScriptedInputHandler } from '../../src/ensembles/inputHandlers.js';
import { ensembleFrom, tempDir, writeScript } from './helpers.js';

const ensemble = parseEnsemble(
  'name: r\nagents:\n  - { name: planner, script: x }\n  - { name: code_reviewer, script: x }\n  - { name: reviewer, script: x }\n',
);

describe('parseAgentRequests', () => {
  it('splits questions for the user from requests that another agent run', () => {
    expect(
      parseAgentRequests(ensemble, [
        { prompt: 'Name?' },
        { type: 'input', prompt: 'Age?', key: 'age' },
        { target_agent_type: 'reviewer', parameters: { file: 'a.ts' }, priority: 2 },
        { target_agent_type: 'code' },
      ]),
    ).toEqual({
      inputs: [
        { prompt: 'Name?', key: 'user_input' },
        { prompt: 'Age?', key: 'age' },
      ],
      agents: [
        { target_agent_type: 'reviewer', parameters: { file: 'a.ts' }, priority: 2 },
        { target_agent_type: 'code_reviewer', parameters: {}, priority: 0 },
      ],
    });
    expect(parseAgentRequests(ensemble, undefined)).toEqual({ inputs: [], agents: [] });
  });

  it('names an unknown target, a malformed entry, and a non-list', () => {
    expect(parseAgentRequests(ensemble, [{ target_agent_type: 'tester' }]).error).toMatch(
      /"tester", which is no agent of ensemble "r" \(agents: planner, code_reviewer, reviewer\)/,
    );
    expect(parseAgentRequests(ensemble, [{ nope: 1 }]).error).toMatch(
      /agent_requests\[0\] is \{"nope":1\}: expected/,
    );
    expect(parseAgentRequests(ensemble, 'x').error).toBe('agent_requests is "x", not a list');
  });

  it('resolves targets by exact name first, then by substring as llm-orc does', () => {
    expect(resolveTarget(ensemble, 'reviewer')).toBe('reviewer');
    expect(resolveTarget(ensemble, 'plan')).toBe('planner');
    expect(resolveTarget(ensemble, 'x')).toBeUndefined();
  });

  it('files requests by target, highest priority first, in arrival order otherwise', () => {
    const book = createBook();
    fileAgentRequests(book, 'a', [{ target_agent_type: 't', parameters: { n: 1 }, priority: 0 }]);
    fileAgentRequests(book, 'b', [
      { target_agent_type: 't', parameters: { n: 2 }, priority: 3 },
      { target_agent_type: 't', parameters: { n: 3 }, priority: 0 },
    ]);
    expect(book.requests.t!.map((r) => r.parameters.n)).toEqual([2, 1, 3]);
  });
});

describe('agent requests in a run (ADR-005 process_agent_requests)', () => {
  it('trigger the target in the next step with the parameters in its input', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'log');
    const planner = writeScript(
      dir,
      'planner.js',
      `reply({ success: true, data: { planned: true }, agent_requests: [{ target_agent_type: 'worker', parameters: { job: 'index' }, priority: 1 }] });`,
    );
    const worker = writeScript(
      dir,
      'worker.js',
      `require('node:fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(msg.parameters ?? null) + '\\n'); reply({ success: true, data: { did: msg.parameters?.job ?? 'nothing' } });`,
    );
    const result = await runEnsemble(
      ensembleFrom(
        `name: req\nagents:\n  - { name: planner, script: ${planner} }\n  - { name: worker, script: ${worker}, depends_on: [{ agent_name: other, condition: 'false' }], conversation: { max_turns: 3 } }\n  - { name: other, script: ${worker}, depends_on: [planner] }\n`,
        dir,
      ),
    );
    expect(result.completion_reason).toBe('completed');
    const worker1 = result.conversation_history.find((turn) => turn.agent_name === 'worker')!;
    expect(worker1.output_data).toEqual({ did: 'index' });
    expect(worker1.input_data.requests).toEqual([
      { from: 'planner', parameters: { job: 'index' }, priority: 1 },
    ]);
    expect(result.conversation_history[0]!.agent_requests).toEqual([
      { target_agent_type: 'worker', parameters: { job: 'index' }, priority: 1 },
    ]);
    expect(result.agent_execution_count.worker).toBe(1);
    expect(readFileSync(log, 'utf8')).toContain('{"job":"index"}');
  });

  it('a request naming no agent fails the requesting agent', async () => {
    const dir = tempDir();
    const planner = writeScript(
      dir,
      'planner.js',
      `reply({ success: true, data: {}, agent_requests: [{ target_agent_type: 'ghost', parameters: {} }] });`,
    );
    const result = await runEnsemble(
      ensembleFrom(`name: req\nagents:\n  - { name: planner, script: ${planner} }\n`, dir),
    );
    expect(result.failed_agents).toEqual(['planner']);
    expect(result.conversation_history[0]!.error).toMatch(/"ghost", which is no agent/);
  });

  it('questions and agent requests can come in one reply', async () => {
    const dir = tempDir();
    const planner = writeScript(
      dir,
      'planner.js',
      `reply({ success: true, data: {}, agent_requests: [{ prompt: 'Which file?', key: 'file' }, { target_agent_type: 'worker', parameters: { n: 1 } }] });`,
    );
    const worker = writeScript(
      dir,
      'worker.js',
      `reply({ success: true, data: { n: msg.parameters.n } });`,
    );
    const result = await runEnsemble(
      ensembleFrom(
        `name: req\nagents:\n  - { name: planner, script: ${planner} }\n  - { name: worker, script: ${worker}, depends_on: [{ agent_name: planner, condition: 'false' }] }\n`,
        dir,
      ),
      { inputHandler: new ScriptedInputHandler({ planner: 'a.ts' }) },
    );
    expect(result.final_state).toEqual({ planner: { file: 'a.ts' }, worker: { n: 1 } });
  });
});
