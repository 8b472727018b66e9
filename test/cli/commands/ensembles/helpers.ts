import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, vi } from 'vitest';
import { registerEnsembleCommands } from '../../../../src/cli/commands/ensembles.js';
import { tempDir } from '../../../ensembles/helpers.js';

export { tempDir };

/** Captured stdout/stderr of the CLI in the current test. */
export const io = { out: '', err: '' };
let cwd = '';
let xdg: string | undefined;

beforeEach(() => {
  io.out = '';
  io.err = '';
  cwd = process.cwd();
  xdg = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = tempDir();
  process.exitCode = undefined;
  vi.spyOn(process.stdout, 'write').mockImplementation(
    (chunk) => ((io.out += String(chunk)), true),
  );
  vi.spyOn(process.stderr, 'write').mockImplementation(
    (chunk) => ((io.err += String(chunk)), true),
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  process.chdir(cwd);
  if (xdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = xdg;
  process.exitCode = undefined;
});

/** Runs `colloquy <args>` in-process. */
export async function cli(...args: string[]): Promise<void> {
  const program = new Command('colloquy').exitOverride();
  registerEnsembleCommands(program);
  await program.parseAsync(['node', 'colloquy', ...args]);
}

/**
 * An llm-orc project written by us: a mock-model profile, a Node script speaking llm-orc's
 * protocol, and `testing/pipeline` (script -> LLM, plus an inline shell agent).
 */
export function llmOrcProject(): string {
  const root = tempDir();
  const dot = path.join(root, '.llm-orc');
  mkdirSync(path.join(dot, 'ensembles', 'testing'), { recursive: true });
  mkdirSync(path.join(dot, 'scripts'), { recursive: true });
  writeFileSync(
    path.join(dot, 'config.yaml'),
    'model_profiles:\n  analyst:\n    model: mock-analyst\n    provider: ollama\n    system_prompt: You analyse.\n',
  );
  writeFileSync(
    path.join(dot, 'scripts', 'count_words.js'),
    `let raw = '';
process.stdin.on('data', (c) => (raw += c));
process.stdin.on('end', () => {
  const msg = JSON.parse(raw);
  const text = msg.input ?? msg.input_data;
  const min = JSON.parse(process.env.AGENT_PARAMETERS).min ?? 0;
  const words = text.split(/\\s+/).filter((w) => w.length >= min);
  console.log(JSON.stringify({ success: true, words: words.length }));
});
`,
  );
  writeFileSync(
    path.join(dot, 'ensembles', 'testing', 'pipeline.yaml'),
    `name: pipeline
description: Counts words, then a mock analyst comments
serves: demo
agents:
  - name: count
    script: scripts/count-words.js
    parameters: { min: 3 }
  - name: shout
    script: echo "INPUT=$INPUT_DATA"
  - name: analyst
    model_profile: analyst
    depends_on: [count]
`,
  );
  return root;
}
