/**
 * The SDK's own features used by a sub-agent reached through send_message: handoffs, guardrails,
 * structured output and MCP tools.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputGuardrailTripwireTriggered, MCPServerStdio } from '@openai/agents-core';
import { z } from 'zod';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { lastUserText, toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { chatThreads, label, send } from './helpers.js';

/** A caller that messages `recipient` once and reports the answer. */
function caller(recipient: string, message: string): Agent {
  return new Agent({
    name: 'Caller',
    instructions: 'Delegate.',
    model: new ScriptedModel([
      send(recipient, message),
      (r) => `Caller got: ${toolOutputsSinceUser(r)[0]}`,
    ]),
  });
}

describe('handoffs inside a sub-agent', () => {
  it('completes a chain of two handoffs and records it in the pair thread', async () => {
    const y = new Agent({
      name: 'Y',
      instructions: 'y',
      model: new ScriptedModel((r) => `Y answers ${lastUserText(r)}`),
    });
    const x = new Agent({
      name: 'X',
      instructions: 'x',
      model: new ScriptedModel([{ tool: 'transfer_to_Y', args: {} }]),
      handoffs: [y],
    });
    const b = new Agent({
      name: 'B',
      instructions: 'b',
      model: new ScriptedModel([{ tool: 'transfer_to_X', args: {} }]),
      handoffs: [x],
    });
    const top = caller('B', 'the question');
    const agency = new Agency({ entryPoints: [top], communicationFlows: [[top, b]] });
    const result = await agency.getResponse('go', { chatId: 'handoffs' });
    expect(result.finalOutput).toBe('Caller got: Y answers the question');
    const producers = result.newItems.filter((t) => t.depth === 1).map((t) => t.agent);
    expect(producers).toContain('X');
    expect(producers).toContain('Y');
    const threads = await chatThreads(agency, 'handoffs');
    const pair = threads.get('handoffs__B__Caller')!.map((entry) => label(entry.item));
    expect(pair.filter((l) => l.startsWith('call:transfer_to_'))).toEqual([
      'call:transfer_to_X',
      'call:transfer_to_Y',
    ]);
    expect(pair.filter((l) => l.startsWith('result:transfer_to_'))).toHaveLength(2);
    expect(
      threads.get('handoffs__Caller__USER')!.some((e) => label(e.item).includes('transfer_to_')),
    ).toBe(false);
  });
});

describe('guardrails', () => {
  const guarded = () =>
    new Agent({
      name: 'Guarded',
      instructions: 'g',
      model: new ScriptedModel(['should never be reached']),
      inputGuardrails: [
        {
          name: 'no_secrets',
          execute: async () => ({
            tripwireTriggered: true,
            outputInfo: { reason: 'asks for a secret' },
          }),
        },
      ],
    });

  it('returns a sub-agent tripwire to the caller as a tool output, and the caller finishes', async () => {
    const sub = guarded();
    const top = caller('Guarded', 'tell me the password');
    const agency = new Agency({ entryPoints: [top], communicationFlows: [[top, sub]] });
    const result = await agency.getResponse('go');
    expect(result.finalOutput).toMatch(
      /^Caller got: Error: Guarded failed to answer: Input guardrail triggered/,
    );
    expect(result.finalOutput).toContain('asks for a secret');
  });

  it('rejects the call with the tripwire error when the entry point trips', async () => {
    const agency = new Agency({ entryPoints: [guarded()] });
    const call = agency.getResponse('hi');
    await expect(call).rejects.toBeInstanceOf(InputGuardrailTripwireTriggered);
    await expect(agency.getResponse('hi')).rejects.toThrow(/asks for a secret/);
  });
});

describe('structured output', () => {
  it('gives the caller the sub-agent JSON intact', async () => {
    const rater = new Agent({
      name: 'Rater',
      instructions: 'Rate.',
      outputType: z.object({ score: z.number(), tags: z.array(z.string()) }),
      model: new ScriptedModel(['{"score": 7, "tags": ["tidy", "ünïcode"]}']),
    });
    const top = caller('Rater', 'rate this');
    const agency = new Agency({ entryPoints: [top], communicationFlows: [[top, rater]] });
    const result = await agency.getResponse('go');
    const received = String(result.finalOutput).replace('Caller got: ', '');
    expect(JSON.parse(received)).toEqual({ score: 7, tags: ['tidy', 'ünïcode'] });
  });
});

describe('MCP tools in a sub-agent', () => {
  const fixture = fileURLToPath(new URL('./fixtures/mcpAddServer.ts', import.meta.url));
  const server = new MCPServerStdio({
    command: process.execPath,
    args: ['--import', 'tsx', fixture],
    cacheToolsList: true,
  });
  beforeAll(async () => server.connect(), 20_000);
  afterAll(async () => server.close());

  it('calls the stdio server tool and returns its result to the caller', async () => {
    const calculator = new Agent({
      name: 'Calculator',
      instructions: 'Use add.',
      mcpServers: [server],
      model: new ScriptedModel([
        { tool: 'add', args: { a: 2, b: 40 } },
        (r) => `result ${toolOutputsSinceUser(r)[0]}`,
      ]),
    });
    const top = caller('Calculator', 'what is 2 + 40?');
    const agency = new Agency({ entryPoints: [top], communicationFlows: [[top, calculator]] });
    const result = await agency.getResponse('go');
    expect(result.finalOutput).toContain('sum=42');
    expect(
      result.newItems.some(
        (t) => t.agent === 'Calculator' && t.item.type === 'function_call' && t.item.name === 'add',
      ),
    ).toBe(true);
  });
});
