import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { parseEnsemble } from '../../src/ensembles/load.js';
import type { ConversationResult } from '../../src/ensembles/result.js';
import type { RunData } from '../../src/ensembles/runState.js';
import { createBook } from '../../src/ensembles/scheduler.js';
import type { Ensemble } from '../../src/ensembles/schema.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp dir, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-ens-'));
  dirs.push(dir);
  return dir;
}

/** Writes an executable Node script agent whose body sees `msg` (the parsed stdin) and calls `reply(obj)`. */
export function writeScript(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    `#!/usr/bin/env node\nlet raw = '';\nprocess.stdin.on('data', (c) => (raw += c));\nprocess.stdin.on('end', async () => {\n  const msg = JSON.parse(raw);\n  const reply = (o) => process.stdout.write(JSON.stringify(o));\n  ${body}\n});\n`,
  );
  chmodSync(file, 0o755);
  return `./${name}`;
}

/** A script agent that echoes: `{ success: true, data: { n: <its execution count + 1> } }`. */
export function writeCounter(dir: string, name = 'counter.js'): string {
  return writeScript(
    dir,
    name,
    `const n = (msg.conversation_state.agent_execution_count[msg.agent] ?? 0) + 1; reply({ success: true, data: { n } });`,
  );
}

/** Parses ensemble YAML with scripts resolved from `dir`. */
export function ensembleFrom(yaml: string, dir: string): Ensemble {
  return parseEnsemble(yaml, { file: path.join(dir, 'ensemble.yaml'), baseDir: dir });
}

/** Strips what differs between two runs of the same ensemble (times, ids). */
export function comparable(result: ConversationResult) {
  const { run_id: _runId, ...rest } = result;
  return {
    ...rest,
    conversation_history: result.conversation_history.map(
      ({ timestamp: _t, execution_time: _e, ...turn }) => turn,
    ),
  };
}

/**
 * How deep a self-nesting run went: follows the output of `agent` (a child run's result, which
 * holds the next level's output under the same name) down to the level that stopped, and
 * returns that depth with that level's output.
 */
export function nestedDepth(
  result: ConversationResult,
  agent: string,
): { depth: number; deepest: Record<string, unknown> } {
  let deepest = result.final_state[agent] as Record<string, unknown>;
  let depth = 1;
  while ((deepest.final_state as Record<string, unknown>)[agent]) {
    deepest = (deepest.final_state as Record<string, unknown>)[agent] as Record<string, unknown>;
    depth += 1;
  }
  return { depth, deepest };
}

/** The data of a run that has just started (ensemble `e`, input `task`). */
export const runningData = (): RunData => ({
  status: 'running',
  ensemble: 'e',
  input: 'task',
  book: createBook(),
  elapsed_ms: 0,
});

/**
 * A temp dir with the ensembles `alpha` and `beta` (one script agent each, answering which seat
 * it is and what it got) and `route.js`, a script answering `routeData` (a JS object literal).
 */
export function dispatchSeats(routeData: string): string {
  const dir = tempDir();
  const seat = writeScript(
    dir,
    'seat.js',
    `reply({ success: true, data: { seat: msg.config.seat, got: msg.input } });`,
  );
  for (const name of ['alpha', 'beta'])
    writeFileSync(
      path.join(dir, `${name}.yaml`),
      `name: ${name}\nagents:\n  - { name: answer, script: ${seat}, config: { seat: ${name} } }\n`,
    );
  writeScript(dir, 'route.js', `reply({ success: true, data: ${routeData} });`);
  return dir;
}
