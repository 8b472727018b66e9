import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tool } from '@openai/agents-core';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { resolveInstructions } from '../../src/agency/instructions.js';
import type { SendMessageToolFactory } from '../../src/agency/sendMessage.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { deferred, send, simpleTool } from './helpers.js';

describe('abort with a nested tool that ignores the signal', () => {
  it('rejects the call as soon as it is aborted', async () => {
    const started = deferred();
    const never = new Promise<string>(() => {});
    const hang = simpleTool('hang', async () => {
      started.resolve();
      return never;
    });
    const b = new Agent({
      name: 'B',
      instructions: 'b',
      model: new ScriptedModel([{ tool: 'hang', args: {} }, 'B done']),
      tools: [hang],
    });
    const a = new Agent({
      name: 'A',
      instructions: 'a',
      model: new ScriptedModel([send('B', 'go'), 'A done']),
    });
    const agency = new Agency({ entryPoints: [a], communicationFlows: [[a, b]] });
    const controller = new AbortController();
    const call = agency.getResponse('hi', { signal: controller.signal });
    await started.promise;
    controller.abort(new Error('user gave up'));
    await expect(call).rejects.toThrow('user gave up');
  });
});

describe('instructions that mention a .md file', () => {
  it('treats a sentence ending in .md as text, and a path-like value as a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'colloquy-instr-'));
    writeFileSync(join(dir, 'notes.md'), 'From the file.');
    expect(resolveInstructions('Summarise notes.md', 'A', dir)).toBe('Summarise notes.md');
    expect(resolveInstructions('notes.md', 'A', dir)).toBe('From the file.');
    expect(() => resolveInstructions('missing.md', 'A', dir)).toThrow(/missing\.md/);
  });
});

describe('a custom send_message tool that passes no call id', () => {
  it('keeps the nested run items in newItems, after the caller items', async () => {
    const factory: SendMessageToolFactory = ({ sender, send: deliver }) =>
      tool({
        name: 'send_message',
        description: 'custom',
        strict: true,
        parameters: {
          type: 'object',
          properties: { recipient: { type: 'string' }, message: { type: 'string' } },
          required: ['recipient', 'message'],
          additionalProperties: false,
        },
        execute: async (input, runContext) => {
          const { recipient, message } = input as { recipient: string; message: string };
          return deliver({ sender, recipient, message, runContext: runContext as never });
        },
      });
    const b = new Agent({ name: 'B', instructions: 'b', model: new ScriptedModel(['B answer']) });
    const a = new Agent({
      name: 'A',
      instructions: 'a',
      model: new ScriptedModel([send('B', 'q'), (r) => `A got ${toolOutputsSinceUser(r)[0]}`]),
    });
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [[a, b]],
      sendMessageTool: factory,
    });
    const result = await agency.getResponse('hi');
    expect(result.finalOutput).toBe('A got B answer');
    const agents = result.newItems.map((t) => t.agent);
    expect(agents).toEqual(['A', 'A', 'A', 'B']);
    expect(result.newItems.at(-1)!.parentRunId).toBe(result.newItems[0]!.runId);
  });
});

describe('close()', () => {
  it('waits for running calls before closing the store it opened', async () => {
    const gate = deferred();
    const entered = deferred();
    const slow = simpleTool('slow', async () => {
      entered.resolve();
      await gate.promise;
      return 'slow done';
    });
    const a = new Agent({
      name: 'A',
      instructions: 'a',
      model: new ScriptedModel([
        { tool: 'slow', args: {} },
        (r) => `A: ${toolOutputsSinceUser(r)[0]}`,
      ]),
      tools: [slow],
    });
    const agency = new Agency({ entryPoints: [a] });
    const call = agency.getResponse('go');
    let closed = false;
    const closing = agency.close().then(() => (closed = true));
    // The call is inside its tool (long after an unwaited store close would have resolved); a
    // call that failed instead fails the test at once.
    await Promise.race([entered.promise, call]);
    expect(closed).toBe(false);
    gate.resolve();
    await expect(call).resolves.toMatchObject({ finalOutput: 'A: slow done' });
    await closing;
    expect(closed).toBe(true);
  });
});
