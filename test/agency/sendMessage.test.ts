import { Runner, tool } from '@openai/agents-core';
import type { FunctionTool } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import type { SendMessageToolContext } from '../../src/agency/sendMessage.js';
import type { AgencyResponse } from '../../src/agency/result.js';
import { lastUserText, toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import type { ScriptedStep } from '../../src/models/scriptedModel.js';
import { StoreError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { AppendOptions } from '../../src/stores/types.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { GatedModel, barrier, outputText, send, sends } from './helpers.js';

/** A store whose appends to threads ending in `suffix` fail with a StoreError. */
class FailingStore extends MemoryStore {
  constructor(readonly suffix: string) {
    super();
  }

  override async append(
    threadId: string,
    items: ThreadItem[],
    options: AppendOptions,
  ): Promise<number> {
    if (threadId.endsWith(this.suffix)) throw new StoreError(`disk gone at ${threadId}`);
    return super.append(threadId, items, options);
  }
}

function agent(name: string, model: ScriptedModel | GatedModel, description = ''): Agent {
  return new Agent({ name, description, instructions: `You are ${name}.`, model });
}

/** A model that sends the given step first, then finishes with the tool outputs it got. */
function caller(first: ScriptedStep, name = 'caller'): ScriptedModel {
  return new ScriptedModel(
    [first, (request) => `finished: ${toolOutputsSinceUser(request).join(' | ')}`],
    { name },
  );
}

/** The texts of the tool outputs `agentName`'s runs received, in order. */
function outputsOf(result: AgencyResponse, agentName: string): string[] {
  return result.newItems
    .filter((t) => t.agent === agentName)
    .map((t) => outputText(t.item))
    .filter(Boolean);
}

function sendTool(agency: Agency, name: string): FunctionTool {
  const found = agency.runtimeAgent(name).tools.find((t) => t.name === 'send_message');
  if (!found || found.type !== 'function') throw new Error(`${name} has no send_message tool`);
  return found;
}

describe('send_message tool shape', () => {
  const a = agent('A', new ScriptedModel(['x']), 'the lead');
  const b = agent('B', new ScriptedModel(['x']), 'writes drafts');
  const c = agent('C', new ScriptedModel(['x']), 'checks facts');
  const d = agent('D', new ScriptedModel(['x']));
  const agency = new Agency({
    entryPoints: [a],
    communicationFlows: [
      [a, b],
      [a, c],
      [b, d],
      [d, a],
    ],
  });

  it('has a recipient enum of exactly the allowed recipients', () => {
    const params = sendTool(agency, 'A').parameters as any;
    expect(params.properties.recipient.enum).toEqual(['B', 'C']);
    expect(params.required).toEqual(['recipient', 'message', 'additionalInstructions']);
    expect(Object.keys(params.properties).sort()).toEqual([
      'additionalInstructions',
      'message',
      'recipient',
    ]);
    expect((sendTool(agency, 'B').parameters as any).properties.recipient.enum).toEqual(['D']);
    expect((sendTool(agency, 'D').parameters as any).properties.recipient.enum).toEqual(['A']);
  });

  it('describes each recipient in the tool description', () => {
    const description = sendTool(agency, 'A').description;
    expect(description).toContain('- B: writes drafts');
    expect(description).toContain('- C: checks facts');
    expect(description).not.toContain('D');
    expect(sendTool(agency, 'D').description).toContain('- A: the lead');
  });

  it('is missing on agents without outgoing flows, and the given agents are left untouched', () => {
    expect(agency.runtimeAgent('C').tools.map((t) => t.name)).toEqual([]);
    expect(a.tools).toEqual([]);
    expect(agency.runtimeAgent('A').tools.filter((t) => t.name === 'send_message')).toHaveLength(1);
  });

  it("keeps the agent's own tools next to send_message", () => {
    const own = tool({
      name: 'lookup',
      description: 'l',
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
      strict: true,
      execute: () => 'x',
    });
    const x = new Agent({
      name: 'X',
      instructions: 'x',
      model: new ScriptedModel(['x']),
      tools: [own],
    });
    const y = agent('Y', new ScriptedModel(['x']));
    const withTools = new Agency({ entryPoints: [x], communicationFlows: [[x, y]] });
    expect(withTools.runtimeAgent('X').tools.map((t) => t.name)).toEqual([
      'lookup',
      'send_message',
    ]);
  });
});

describe('send_message failures come back as tool output', () => {
  it('refuses a recipient outside the agency at run time; the caller finishes', async () => {
    const b = new ScriptedModel(['B answer']);
    const a = agent('A', caller(send('Nobody', 'hi')));
    const real = new Agency({ entryPoints: [a], communicationFlows: [[a, agent('B', b)]] });
    const result = await real.getResponse('go');
    expect(outputsOf(result, 'A')).toEqual([
      'Error: A cannot message "Nobody". Allowed recipients: B.',
    ]);
    expect(result.finalOutput).toBe(
      'finished: Error: A cannot message "Nobody". Allowed recipients: B.',
    );
    expect(b.calls).toHaveLength(0);
  });

  it('refuses an agency member the sender has no flow to', async () => {
    const cModel = new ScriptedModel(['C answer']);
    const a = agent('A', caller(send('C', 'hi')));
    const b = agent('B', new ScriptedModel(['B answer']));
    const c = agent('C', cModel);
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, b],
        [c, a],
      ],
    });
    const result = await agency.getResponse('go');
    expect(outputsOf(result, 'A')[0]).toMatch(
      /^Error: A cannot message "C"\. Allowed recipients: B\.$/,
    );
    expect(result.finalOutput).toMatch(/^finished: Error: A cannot message "C"/);
    expect(cModel.calls).toHaveLength(0);
  });

  it('refuses recursion deeper than maxRecursionDepth; every caller finishes', async () => {
    const cModel = new ScriptedModel(['C answer']);
    const a = agent('A', caller(send('B', 'to B'), 'a'));
    const b = agent('B', caller(send('C', 'to C'), 'b'));
    const c = agent('C', cModel);
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, b],
        [b, c],
      ],
      maxRecursionDepth: 1,
    });
    const result = await agency.getResponse('go');
    const [refusal] = outputsOf(result, 'B');
    expect(refusal).toMatch(/^Error: not sent to C: .*at most 1\./);
    expect(outputsOf(result, 'A')).toEqual([`finished: ${refusal}`]);
    expect(result.finalOutput).toBe(`finished: finished: ${refusal}`);
    expect(cModel.calls).toHaveLength(0);
  });

  it('allows exactly maxRecursionDepth levels', async () => {
    const a = agent('A', caller(send('B', 'to B'), 'a'));
    const b = agent('B', caller(send('C', 'to C'), 'b'));
    const c = agent('C', new ScriptedModel(['C answer']));
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, b],
        [b, c],
      ],
      maxRecursionDepth: 2,
    });
    expect((await agency.getResponse('go')).finalOutput).toBe('finished: finished: C answer');
  });

  it('returns the failure of a recipient whose model throws; the caller finishes', async () => {
    const a = agent('A', caller(send('B', 'hi')));
    const b = agent('B', new ScriptedModel([{ error: 'model exploded' }], { name: 'b' }));
    const agency = new Agency({ entryPoints: [a], communicationFlows: [[a, b]] });
    const result = await agency.getResponse('go');
    const [failure] = outputsOf(result, 'A');
    expect(failure).toMatch(/^Error: B failed to answer: .*model exploded/);
    expect(result.finalOutput).toBe(`finished: ${failure}`);
  });

  it('answers a second message to the same recipient in one response with an error', async () => {
    // B waits a macrotask before answering, so both calls are certainly in flight together.
    const bModel = new GatedModel(
      new ScriptedModel((request) => `B got ${lastUserText(request)}`),
      () => new Promise((r) => setImmediate(r)),
    );
    const a = agent('A', caller(sends(['B', 'first'], ['B', 'second'])));
    const agency = new Agency({ entryPoints: [a], communicationFlows: [[a, agent('B', bModel)]] });
    const result = await agency.getResponse('go');
    const outputs = outputsOf(result, 'A');
    expect(outputs).toHaveLength(2);
    expect(outputs.filter((o) => /^B got (first|second)$/.test(o))).toHaveLength(1);
    expect(outputs.filter((o) => o.startsWith('Error: A is already waiting for B'))).toHaveLength(
      1,
    );
    expect(bModel.calls).toHaveLength(1);
    expect(result.finalOutput).toBe(`finished: ${outputs.join(' | ')}`);
  });

  it('lets the same recipient be messaged again once it has answered', async () => {
    const bModel = new ScriptedModel((request) => `B got ${lastUserText(request)}`);
    const aModel = new ScriptedModel([
      send('B', 'one'),
      send('B', 'two'),
      (r) => `done: ${toolOutputsSinceUser(r).join(', ')}`,
    ]);
    const a = agent('A', aModel);
    const agency = new Agency({ entryPoints: [a], communicationFlows: [[a, agent('B', bModel)]] });
    expect((await agency.getResponse('go')).finalOutput).toBe('done: B got one, B got two');
    expect(bModel.calls).toHaveLength(2);
  });

  it('throws when the tool is used outside an agency run', async () => {
    const a = agent('A', new ScriptedModel([send('B', 'hi'), 'unreachable']));
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [[a, agent('B', new ScriptedModel(['x']))]],
    });
    await expect(
      new Runner({ tracingDisabled: true }).run(agency.runtimeAgent('A'), 'go'),
    ).rejects.toThrow(/outside an agency run/);
  });
});

describe('send_message and store failures', () => {
  function chain(failingSuffix: string) {
    const a = agent('A', caller(send('B', 'to B'), 'a'));
    const b = agent('B', caller(send('C', 'to C'), 'b'));
    const c = agent('C', new ScriptedModel(['C answer']));
    const threads = new ThreadManager({ store: new FailingStore(failingSuffix) });
    return new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, b],
        [b, c],
      ],
      threads,
    });
  }

  it("ends the whole call when the recipient's thread cannot be saved", async () => {
    await expect(chain('__A__B').getResponse('go', { chatId: 'c' })).rejects.toThrow(
      /disk gone at c__A__B/,
    );
  });

  // BUG (src/agency/sendMessage.ts:138): B's run rejects with the SDK's ToolCallError wrapping the
  // StoreError, so `error instanceof StoreError` is false in A's send_message and the store failure
  // becomes the tool output "Error: B failed to answer: ... StoreError: disk gone" — swallowed.
  it('ends the whole call when a thread two levels down cannot be saved', async () => {
    await expect(chain('__B__C').getResponse('go', { chatId: 'c' })).rejects.toThrow(
      /disk gone at c__B__C/,
    );
  });
});

describe('send_message concurrency', () => {
  it('runs parallel calls to two different recipients concurrently; both succeed', async () => {
    const meet = barrier(2);
    const bModel = new GatedModel(new ScriptedModel(['B answer']), () => meet.arrive());
    const cModel = new GatedModel(new ScriptedModel(['C answer']), () => meet.arrive());
    const a = agent('A', caller(sends(['B', 'to B'], ['C', 'to C'])));
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, agent('B', bModel)],
        [a, agent('C', cModel)],
      ],
    });
    const result = await agency.getResponse('go');
    expect(outputsOf(result, 'A')).toEqual(['B answer', 'C answer']);
    expect(result.finalOutput).toBe('finished: B answer | C answer');
    const [b] = bModel.spans;
    const [c] = cModel.spans;
    expect(b!.start).toBeLessThan(c!.end);
    expect(c!.start).toBeLessThan(b!.end);
  });

  it('does not block A → B → A → B chains', async () => {
    const aModel = new ScriptedModel((request) => {
      const outs = toolOutputsSinceUser(request);
      if (outs.length > 0) return `A(${outs[0]})`;
      return lastUserText(request) === 'go' ? send('B', 'm1') : send('B', 'm3');
    });
    const bModel = new ScriptedModel((request) => {
      const outs = toolOutputsSinceUser(request);
      if (outs.length > 0) return `B(${outs[0]})`;
      return lastUserText(request) === 'm1' ? send('A', 'm2') : 'B-final';
    });
    const a = agent('A', aModel);
    const b = agent('B', bModel);
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [
        [a, b],
        [b, a],
      ],
    });
    const result = await agency.getResponse('go');
    expect(result.finalOutput).toBe('A(B(A(B-final)))');
    expect(
      result.newItems
        .map((t) => `${t.depth}:${t.agent}`)
        .filter((s, i, all) => all.indexOf(s) === i),
    ).toEqual(['0:A', '1:B', '2:A', '3:B']);
    expect(aModel.calls).toHaveLength(4);
    expect(bModel.calls).toHaveLength(3);
  });

  it('serves two chats at the same time without blocking each other', async () => {
    const meet = barrier(2);
    const bModel = new GatedModel(
      new ScriptedModel((request) => `B got ${lastUserText(request)}`),
      () => meet.arrive(),
    );
    const aModel = new ScriptedModel((request) => {
      const outs = toolOutputsSinceUser(request);
      return outs.length > 0 ? `A: ${outs[0]}` : send('B', `from ${lastUserText(request)}`);
    });
    const a = agent('A', aModel);
    const agency = new Agency({ entryPoints: [a], communicationFlows: [[a, agent('B', bModel)]] });
    const [one, two] = await Promise.all([
      agency.getResponse('chat one', { chatId: 'one' }),
      agency.getResponse('chat two', { chatId: 'two' }),
    ]);
    expect(one.finalOutput).toBe('A: B got from chat one');
    expect(two.finalOutput).toBe('A: B got from chat two');
    expect(bModel.calls).toHaveLength(2);
  });
});

describe('sendMessageTool option', () => {
  it('uses a custom factory, which receives the sender, recipients and send', async () => {
    const seen: Array<Omit<SendMessageToolContext, 'send'>> = [];
    const made: unknown[] = [];
    const factory = ({ sender, recipients, send: deliver }: SendMessageToolContext) => {
      seen.push({ sender, recipients });
      const custom = tool({
        name: 'send_message',
        description: `custom tool of ${sender}`,
        strict: true,
        parameters: {
          type: 'object',
          properties: { recipient: { type: 'string' }, message: { type: 'string' } },
          required: ['recipient', 'message'],
          additionalProperties: false,
        },
        execute: async (input, runContext, details) => {
          const { recipient, message } = input as { recipient: string; message: string };
          const answer = await deliver({
            sender,
            recipient,
            message: message.toUpperCase(),
            runContext: runContext as any,
            callId: details?.toolCall?.callId,
          });
          return `custom<${answer}>`;
        },
      });
      made.push(custom);
      return custom;
    };
    const bModel = new ScriptedModel((request) => `B got ${lastUserText(request)}`);
    const a = agent(
      'A',
      caller({ tool: 'send_message', args: { recipient: 'B', message: 'hello' } }),
    );
    const b = agent('B', bModel, 'bee');
    const agency = new Agency({
      entryPoints: [a],
      communicationFlows: [[a, b]],
      sendMessageTool: factory,
    });
    expect(seen).toEqual([{ sender: 'A', recipients: [{ name: 'B', description: 'bee' }] }]);
    expect(agency.runtimeAgent('A').tools).toContain(made[0]);
    const result = await agency.getResponse('go');
    expect(result.finalOutput).toBe('finished: custom<B got HELLO>');
    expect(result.newItems.some((t) => t.agent === 'B')).toBe(true);
  });
});
