import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent as SdkAgent, Runner } from '@openai/agents-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent, describeAgent } from '../../src/agency/agent.js';
import { InstructionsNotFoundError } from '../../src/agency/instructions.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';

describe('Agent', () => {
  const originalCwd = process.cwd();
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'colloquy-agent-'));
    mkdirSync(join(dir, 'prompts'));
    writeFileSync(join(dir, 'prompts', 'writer.md'), '# Writer\nYou write short drafts.\n');
    process.chdir(dir);
  });

  afterEach(() => {
    process.chdir(originalCwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads instructions from a .md path relative to the current directory', () => {
    const writer = new Agent({
      name: 'Writer',
      instructions: 'prompts/writer.md',
      model: new ScriptedModel(['x']),
    });
    expect(writer.instructions).toBe('# Writer\nYou write short drafts.\n');
    const dotted = new Agent({
      name: 'W2',
      instructions: './prompts/writer.md',
      model: new ScriptedModel(['x']),
    });
    expect(dotted.instructions).toBe('# Writer\nYou write short drafts.\n');
  });

  it('sends the file contents to the model as system instructions', async () => {
    const model = new ScriptedModel(['done']);
    const writer = new Agent({ name: 'Writer', instructions: 'prompts/writer.md', model });
    await new Agency({ entryPoints: [writer] }).getResponse('hello');
    expect(model.calls[0]!.request.systemInstructions).toBe('# Writer\nYou write short drafts.\n');
  });

  it('keeps instructions that are not a .md path as text', () => {
    const text = 'Answer briefly.\nSee notes.md for details.';
    const a = new Agent({ name: 'A', instructions: text, model: new ScriptedModel(['x']) });
    expect(a.instructions).toBe(text);
    const b = new Agent({ name: 'B', instructions: 'Be nice.', model: new ScriptedModel(['x']) });
    expect(b.instructions).toBe('Be nice.');
  });

  it('raises InstructionsNotFoundError naming the agent and the path for a missing .md file', () => {
    let caught: unknown;
    try {
      new Agent({
        name: 'Ghost',
        instructions: 'prompts/missing.md',
        model: new ScriptedModel(['x']),
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InstructionsNotFoundError);
    const error = caught as InstructionsNotFoundError;
    expect(error.code).toBe('INSTRUCTIONS_NOT_FOUND');
    expect(error.message).toContain('prompts/missing.md');
    expect(error.message).toContain(join(process.cwd(), 'prompts', 'missing.md'));
    expect(error.message).toContain('Ghost');
  });

  it('raises InstructionsNotFoundError for a .md path that is a directory', () => {
    mkdirSync(join(dir, 'folder.md'));
    expect(
      () => new Agent({ name: 'D', instructions: 'folder.md', model: new ScriptedModel(['x']) }),
    ).toThrow(InstructionsNotFoundError);
  });

  it('reads sharedInstructions from a .md path and fails clearly when it is missing', async () => {
    writeFileSync(join(dir, 'shared.md'), 'Shared rules.');
    const model = new ScriptedModel(['ok']);
    const a = new Agent({ name: 'A', instructions: 'Own rules.', model });
    await new Agency({ entryPoints: [a], sharedInstructions: 'shared.md' }).getResponse('hi');
    expect(model.calls[0]!.request.systemInstructions).toBe('Shared rules.\n\nOwn rules.');
    expect(() => new Agency({ entryPoints: [a], sharedInstructions: 'nope.md' })).toThrow(
      /nope\.md/,
    );
  });

  it('is an SDK Agent that the SDK Runner can run directly', async () => {
    const model = new ScriptedModel(['Hello from the SDK']);
    const agent = new Agent({
      name: 'Plain',
      description: 'says hello',
      instructions: 'Greet.',
      model,
    });
    expect(agent).toBeInstanceOf(SdkAgent);
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'hi');
    expect(result.finalOutput).toBe('Hello from the SDK');
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.request.systemInstructions).toBe('Greet.');
  });

  it('exposes its description, also as the handoff description', () => {
    const agent = new Agent({
      name: 'D',
      description: 'Does D things.',
      instructions: 'x',
      model: new ScriptedModel([]),
    });
    expect(agent.description).toBe('Does D things.');
    expect(agent.handoffDescription).toBe('Does D things.');
    expect(describeAgent(agent)).toBe('Does D things.');
    const sdk = new SdkAgent({ name: 'S', handoffDescription: 'from the SDK' });
    expect(describeAgent(sdk)).toBe('from the SDK');
  });
});
