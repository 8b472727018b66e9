/**
 * Working memory: updated through update_working_memory in one chat, it is in the instructions
 * of a later chat of the same user only; versions roll back; a schema shapes the tool.
 */
import type { ModelRequest } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { rollbackWorkingMemory, WORKING_MEMORY_TOOL } from '../../src/memory/working.js';
import type { MemoryOptions } from '../../src/memory/options.js';
import { lastUserText } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';

/** Saves `remember: X` through the tool, then answers; anything else is answered at once. */
function memoryModel(args: (text: string) => Record<string, unknown>): ScriptedModel {
  return new ScriptedModel(
    (request: ModelRequest) => {
      const text = lastUserText(request);
      const toolDone = Array.isArray(request.input)
        ? request.input.some((i) => (i as { type?: string }).type === 'function_call_result')
        : false;
      if (text.startsWith('remember: ') && !toolDone) {
        return { tool: WORKING_MEMORY_TOOL, args: args(text.slice('remember: '.length)) };
      }
      return 'done';
    },
    { name: 'wm' },
  );
}

function agencyWith(model: ScriptedModel, working: MemoryOptions['working']) {
  return new Agency({
    name: 'wm',
    entryPoints: [new Agent({ name: 'A', instructions: 'Help the user.', model })],
    threads: new ThreadManager({ store: new MemoryStore() }),
    memory: { working },
  });
}

const instructions = (model: ScriptedModel) => model.calls.at(-1)!.request.systemInstructions ?? '';

describe('working memory', () => {
  it('reaches a later chat of the same user only, and rolls back', async () => {
    const model = memoryModel((text) => ({ content: text }));
    const agency = agencyWith(model, true);
    await agency.getResponse('remember: Name Ada; likes teal', { userId: 'u1', chatId: 'c1' });
    await agency.getResponse('hello', { userId: 'u1', chatId: 'c2' });
    expect(instructions(model)).toContain('Help the user.');
    expect(instructions(model)).toContain('<working-memory>');
    expect(instructions(model)).toContain('Name Ada; likes teal');
    await agency.getResponse('hello', { userId: 'u2', chatId: 'c3' });
    expect(instructions(model)).not.toContain('Ada');
    expect(instructions(model)).toContain('(nothing yet)');
    // Without a userId, no working memory and no tool.
    await agency.getResponse('hello', { chatId: 'c4' });
    expect(instructions(model)).not.toContain('<working-memory>');
    expect(model.calls.at(-1)!.request.tools.map((t) => t.name)).not.toContain(WORKING_MEMORY_TOOL);

    await agency.getResponse('remember: Name Ada; likes red', { userId: 'u1', chatId: 'c5' });
    const backend = agency.memory!.backend;
    expect((await backend.getWorking('wm', 'u1'))?.content).toBe('Name Ada; likes red');
    const restored = await rollbackWorkingMemory(backend, { agency: 'wm', userId: 'u1' }, 1);
    expect(restored).toMatchObject({ version: 3, content: 'Name Ada; likes teal' });
    await agency.getResponse('hello', { userId: 'u1', chatId: 'c6' });
    expect(instructions(model)).toContain('likes teal');
    await expect(rollbackWorkingMemory(backend, { agency: 'wm', userId: 'u1' }, 9)).rejects.toThrow(
      /no working-memory version 9\. Versions: 1, 2, 3/,
    );
  });

  it('takes the schema’s fields as the tool’s arguments', async () => {
    const schema = z.object({ name: z.string(), colour: z.string() });
    const model = memoryModel((text) => {
      const [name, colour] = text.split(',');
      return { name, colour };
    });
    const agency = agencyWith(model, { schema });
    await agency.getResponse('remember: Ada,teal', { userId: 'u1', chatId: 'c1' });
    const tool = model.calls[0]!.request.tools.find((t) => t.name === WORKING_MEMORY_TOOL);
    expect(
      Object.keys((tool as { parameters: { properties: object } }).parameters.properties),
    ).toEqual(['name', 'colour']);
    await agency.getResponse('hello', { userId: 'u1', chatId: 'c2' });
    expect(instructions(model)).toContain('{"name":"Ada","colour":"teal"}');
  });
});
