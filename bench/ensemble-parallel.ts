// Ensemble scheduler benchmark (offline): `npx tsx bench/ensemble-parallel.ts`.
// 1. Eight independent script agents that each sleep 200 ms: the ensemble's wall time over the
//    longest agent's execution time (target <= 1.2).
// 2. Scheduler overhead per turn in a 100-turn conversation: the same 100 turns run by
//    runEnsemble (MemoryStore) minus a baseline that calls the same agent 100 times directly.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnsemble } from '../src/ensembles/load.js';
import { runEnsemble } from '../src/ensembles/run.js';
import { ScriptedModel } from '../src/models/scriptedModel.js';
import { Runner } from '@openai/agents-core';
import { Agent } from '../src/agency/agent.js';
import { MemoryStore } from '../src/stores/memory.js';

const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-bench-'));
try {
  const sleeper = path.join(dir, 'sleep.js');
  writeFileSync(
    sleeper,
    `#!/usr/bin/env node\nprocess.stdin.resume();\nprocess.stdin.on('end', () => setTimeout(() => process.stdout.write('{"success":true,"data":{}}'), 200));\n`,
  );
  chmodSync(sleeper, 0o755);
  const agents = Array.from(
    { length: 8 },
    (_, i) => `  - { name: s${i}, script: ./sleep.js }`,
  ).join('\n');
  const parallel = parseEnsemble(`name: parallel\nagents:\n${agents}\n`, { baseDir: dir });
  await runEnsemble(parallel); // warm-up
  const started = performance.now();
  const result = await runEnsemble(parallel, { concurrency: 8 });
  const wall = (performance.now() - started) / 1000;
  const longest = Math.max(...result.conversation_history.map((turn) => turn.execution_time));
  console.log(
    `8 script agents x 200 ms: wall ${wall.toFixed(3)}s, longest agent ${longest.toFixed(3)}s`,
  );
  console.log(`ratio wall/longest: ${(wall / longest).toFixed(2)} (target <= 1.2)`);

  // 100-turn conversation of one scripted LLM agent that re-triggers itself.
  const TURNS = 100;
  const model = () => new ScriptedModel(['{"ok": true}'], { repeatLast: true });
  const loop = parseEnsemble(
    `name: loop\nagents:\n  - name: talker\n    model_profile: p\n    depends_on: [{ agent_name: talker, condition: 'true', max_executions: ${TURNS + 1} }]\n    conversation: { max_turns: ${TURNS + 1}, triggers_conversation: true }\nconversation_limits: { max_total_turns: ${TURNS} }\n`,
    { baseDir: dir },
  );
  // Baseline: the same model calls through the SDK Runner, with no scheduler, store or checkpoints.
  const runner = new Runner({ tracingDisabled: true });
  const agent = new Agent({ name: 'talker', instructions: 'x', model: model() });
  let t = performance.now();
  for (let i = 0; i < TURNS; i++) await runner.run(agent, `Task: ${i}`);
  const baseline = performance.now() - t;
  t = performance.now();
  const convo = await runEnsemble(loop, { store: new MemoryStore(), createModel: model });
  const ensembleMs = performance.now() - t;
  console.log(
    `100-turn conversation: ${convo.turn_count} turns (${convo.completion_reason}) in ${ensembleMs.toFixed(0)} ms; baseline ${baseline.toFixed(0)} ms`,
  );
  console.log(`scheduler overhead per turn: ${((ensembleMs - baseline) / TURNS).toFixed(2)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
