/**
 * The agency's defaults (issue 15): a default chat for the agency's lifetime, one shared context
 * per call, a generous per-agent turn budget with a helpful error, producers named after a
 * handoff, and calls of one chat that never interleave.
 */
import { tool } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agency, DEFAULT_MAX_TURNS } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { sharedContext } from '../../src/agency/sharedContext.js';
import { ColloquyError } from '../../src/errors.js';
import { lastUserText, toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { chatThreads, deferred, GatedModel, label, send, simpleTool } from './helpers.js';

const memory = () => new ThreadManager({ store: new MemoryStore() });

/** An agent that answers with the number of user messages it has seen so far. */
function counter(name = 'A'): Agent {
  return new Agent({
    name,
    instructions: 'count',
    model: new ScriptedModel(
      (request) => {
        const input = Array.isArray(request.input) ? request.input : [];
        const users = input.filter((item) => 'role' in item && item.role === 'user').length;
        return `${lastUserText(request)} #${users}`;
      },
      { repeatLast: true },
    ),
  });
}

describe('the default chat', () => {
  it('continues one chat across calls without a chatId', async () => {
    const agency = new Agency({ entryPoints: [counter()], threads: memory() });
    const first = await agency.getResponse('one');
    const second = await agency.getResponse('two');
    expect(first.chatId).toBe(agency.chatId);
    expect(second.chatId).toBe(agency.chatId);
    expect(second.finalOutput).toBe('two #2');
  });

  it('lets an explicit chatId select another chat, and newChat start a fresh one', async () => {
    const agency = new Agency({ entryPoints: [counter()], threads: memory() });
    await agency.getResponse('one');
    const other = await agency.getResponse('elsewhere', { chatId: 'other' });
    expect(other).toMatchObject({ chatId: 'other', finalOutput: 'elsewhere #1' });
    const before = agency.chatId;
    const fresh = agency.newChat();
    expect(fresh).not.toBe(before);
    expect(agency.chatId).toBe(fresh);
    expect((await agency.getResponse('again')).finalOutput).toBe('again #1');
    expect((await agency.getResponse('back', { chatId: before })).finalOutput).toBe('back #2');
  });

  it('gives every agency its own default chat', () => {
    const a = new Agency({ entryPoints: [counter()], threads: memory() });
    const b = new Agency({ entryPoints: [counter()], threads: memory() });
    expect(a.chatId).toMatch(/^chat_/);
    expect(a.chatId).not.toBe(b.chatId);
  });
});

describe('the shared context', () => {
  function delegating() {
    const seen: unknown[] = [];
    const note = tool({
      name: 'note',
      description: 'records a note in the shared context',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }, runContext) => {
        const shared = sharedContext<{ notes: string[]; owner?: string }>(runContext);
        seen.push(shared.value);
        shared.set('notes', [...shared.get('notes', []), text]);
        return `noted for ${shared.get('owner') ?? 'nobody'}`;
      },
    });
    const worker = new Agent({
      name: 'Worker',
      instructions: 'w',
      tools: [note],
      model: new ScriptedModel([{ tool: 'note', args: { text: 'from worker' } }, 'done']),
    });
    const boss = new Agent({
      name: 'Boss',
      instructions: 'b',
      tools: [note],
      model: new ScriptedModel([
        { tool: 'note', args: { text: 'from boss' } },
        send('Worker', 'go'),
        (request) => `finished: ${toolOutputsSinceUser(request).join(' | ')}`,
      ]),
    });
    return { boss, worker, seen };
  }

  it('shares one object across nested runs when the caller passes none, seeded by userContext', async () => {
    const { boss, worker, seen } = delegating();
    const agency = new Agency({
      entryPoints: [boss],
      communicationFlows: [[boss, worker]],
      threads: memory(),
      userContext: { owner: 'ops' },
    });
    const result = await agency.getResponse('start');
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toBe(agency.context);
    expect(agency.context).toEqual({ owner: 'ops', notes: ['from boss', 'from worker'] });
    expect(result.finalOutput).toContain('noted for ops');
  });

  it('uses the caller context object instead, for the whole call tree', async () => {
    const { boss, worker, seen } = delegating();
    const agency = new Agency({
      entryPoints: [boss],
      communicationFlows: [[boss, worker]],
      threads: memory(),
      userContext: { owner: 'ops' },
    });
    const mine: { notes?: string[] } = {};
    await agency.getResponse('start', { context: mine });
    expect(seen).toEqual([mine, mine]);
    expect(mine.notes).toEqual(['from boss', 'from worker']);
    expect(agency.context).toEqual({ owner: 'ops' });
  });

  it('refuses a context that is not an object, naming the fix', () => {
    expect(() => sharedContext({ context: 'text' } as never)).toThrow(/not an object.*context/);
  });
});

describe('the turn budget', () => {
  function busy(calls: number): Agent {
    return new Agent({
      name: 'Busy',
      instructions: 'b',
      tools: [simpleTool('step', () => 'ok')],
      model: new ScriptedModel([
        ...Array.from({ length: calls }, () => ({ tool: 'step', args: {} })),
        'done',
      ]),
    });
  }

  it('lets an agent make a dozen tool calls by default', async () => {
    expect(DEFAULT_MAX_TURNS).toBeGreaterThanOrEqual(50);
    const agency = new Agency({ entryPoints: [busy(12)], threads: memory() });
    expect((await agency.getResponse('go')).finalOutput).toBe('done');
  });

  it('names the agent that ran out and how to raise the budget', async () => {
    const agency = new Agency({ entryPoints: [busy(12)], threads: memory(), maxTurns: 5 });
    const error = await agency.getResponse('go').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ColloquyError);
    expect(error).toMatchObject({ code: 'MAX_TURNS' });
    expect((error as Error).message).toMatch(
      /"Busy".*max turns \(5\).*new Agency\(\{ maxTurns \}\)/,
    );
  });

  it('takes budgets per agent, and refuses unknown agents or bad numbers', async () => {
    const agency = new Agency({
      entryPoints: [busy(12)],
      threads: memory(),
      maxTurns: 5,
      maxTurnsByAgent: { Busy: 20 },
    });
    expect(agency.maxTurnsFor('Busy')).toBe(20);
    expect((await agency.getResponse('go')).finalOutput).toBe('done');
    expect(() => new Agency({ entryPoints: [busy(1)], maxTurnsByAgent: { Nobody: 3 } })).toThrow(
      /"Nobody".*not an agent/,
    );
    expect(() => new Agency({ entryPoints: [busy(1)], maxTurns: 0 })).toThrow(/maxTurns/);
  });
});

describe('items after a handoff', () => {
  it('name the agent that produced them, and the entry point still sees them as its own', async () => {
    const specialist = new Agent({
      name: 'Specialist',
      instructions: 's',
      model: new ScriptedModel(
        (request) => {
          const input = Array.isArray(request.input) ? request.input : [];
          return `special (${input.filter((i) => 'role' in i && i.role === 'assistant').length} earlier answers)`;
        },
        { repeatLast: true },
      ),
    });
    const front = new Agent({
      name: 'Front',
      instructions: 'f',
      handoffs: [specialist],
      model: new ScriptedModel([{ tool: 'transfer_to_Specialist', args: {} }], {
        repeatLast: true,
      }),
    });
    const agency = new Agency({ entryPoints: [front], threads: memory() });
    await agency.getResponse('first', { chatId: 'h' });
    const second = await agency.getResponse('second', { chatId: 'h' });
    expect(second.finalOutput).toBe('special (1 earlier answers)');
    const items = (await chatThreads(agency, 'h')).get('h__Front__USER')!;
    const byProducer = items.map((entry) => `${entry.meta?.agent}:${label(entry.item)}`);
    expect(byProducer.slice(0, 4)).toEqual([
      'Front:user:first',
      'Front:call:transfer_to_Specialist',
      'Front:result:transfer_to_Specialist',
      'Specialist:assistant:special (0 earlier answers)',
    ]);
  });
});

describe('two calls on one chat', () => {
  function gated() {
    const gate = deferred();
    const entered = deferred();
    const model = new GatedModel(
      new ScriptedModel((request) => `answer to ${lastUserText(request)}`, { repeatLast: true }),
      (index) => {
        if (index !== 0) return Promise.resolve();
        entered.resolve();
        return gate.promise;
      },
    );
    return { agent: new Agent({ name: 'A', instructions: 'a', model }), gate, entered };
  }

  it('run one after the other: the thread reads user, answer, user, answer', async () => {
    const { agent, gate, entered } = gated();
    const agency = new Agency({ entryPoints: [agent], threads: memory() });
    const first = agency.getResponse('one');
    const second = agency.getResponse('two');
    await entered.promise; // the first call is inside the model; the second waits for the chat
    gate.resolve();
    expect((await first).finalOutput).toBe('answer to one');
    expect((await second).finalOutput).toBe('answer to two');
    const items = (await chatThreads(agency, agency.chatId)).get(`${agency.chatId}__A__USER`)!;
    expect(items.map((entry) => label(entry.item))).toEqual([
      'user:one',
      'assistant:answer to one',
      'user:two',
      'assistant:answer to two',
    ]);
  });

  it('fail with CHAT_BUSY when the wait is over, while other chats go on', async () => {
    const { agent, gate } = gated();
    const agency = new Agency({ entryPoints: [agent], threads: memory(), chatWaitMs: 20 });
    const first = agency.getResponse('one', { chatId: 'c1' });
    const busy = await agency.getResponse('two', { chatId: 'c1' }).catch((e: unknown) => e);
    expect(busy).toMatchObject({ code: 'CHAT_BUSY' });
    expect((busy as Error).message).toMatch(/"c1" is busy.*chatWaitMs/);
    expect((await agency.getResponse('elsewhere', { chatId: 'c2' })).finalOutput).toBe(
      'answer to elsewhere',
    );
    gate.resolve();
    await first;
    expect((await agency.getResponse('three', { chatId: 'c1' })).finalOutput).toBe(
      'answer to three',
    );
  });
});
