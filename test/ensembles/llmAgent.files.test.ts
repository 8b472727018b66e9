import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSystemPrompt } from '../../src/ensembles/llmAgent.js';
import { loadEnsemble } from '../../src/ensembles/load.js';
import { runEnsemble } from '../../src/ensembles/run.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { tempDir } from './helpers.js';

const cwd = process.cwd();
afterEach(() => process.chdir(cwd));

/** An ensemble folder with prompts/analyst.md, and a model that answers with its system prompt. */
function project(prompt: string) {
  const dir = tempDir();
  mkdirSync(path.join(dir, 'prompts'));
  writeFileSync(path.join(dir, 'prompts', 'analyst.md'), 'You analyse from the file.\n');
  const file = path.join(dir, 'team.yaml');
  writeFileSync(
    file,
    `name: team\nagents:\n  - { name: analyst, model_profile: p, system_prompt: ${prompt} }\n`,
  );
  const createModel = () =>
    new ScriptedModel([(request) => JSON.stringify({ instructions: request.systemInstructions })]);
  return { dir, file, createModel };
}

describe('files named in an ensemble resolve from the ensemble file`s folder', () => {
  it('system_prompt: prompts/analyst.md is read from there, whatever the current directory', async () => {
    const { file, createModel } = project('prompts/analyst.md');
    const ensemble = await loadEnsemble(file);
    process.chdir(tempDir()); // Somewhere without prompts/.
    const result = await runEnsemble(ensemble, { createModel });
    expect(result.failed_agents).toEqual([]);
    expect(result.final_state.analyst).toEqual({ instructions: 'You analyse from the file.\n' });
  });

  it('a missing prompt file fails the agent, naming the path it looked at', async () => {
    const { dir, file, createModel } = project('prompts/missing.md');
    const result = await runEnsemble(await loadEnsemble(file), { createModel });
    expect(result.failed_agents).toEqual(['analyst']);
    expect(result.conversation_history[0]!.error).toContain(
      `its system_prompt file "prompts/missing.md" could not be read (looked at ${path.join(dir, 'prompts', 'missing.md')}`,
    );
  });

  it('text that merely ends in .md stays an instruction', () => {
    expect(readSystemPrompt('Summarise notes.md', 'a', '/nowhere')).toBe('Summarise notes.md');
    expect(readSystemPrompt('line one\nsee x.md', 'a', '/nowhere')).toBe('line one\nsee x.md');
    expect(() => readSystemPrompt('x.md', 'a', '/nowhere')).toThrow(/looked at \/nowhere\/x.md/);
  });
});
