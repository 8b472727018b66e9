import { describe, expect, it } from 'vitest';
import { Agency } from '../../src/agency/agency.js';
import { Agent } from '../../src/agency/agent.js';
import { toolOutputsSinceUser } from '../../src/models/requestText.js';
import { ScriptedModel, type ScriptedResponder } from '../../src/models/scriptedModel.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { ThreadManager } from '../../src/threads/threadManager.js';
import { chatThreads, label, send, sends } from './helpers.js';

function agent(name: string, model: ScriptedModel): Agent {
  return new Agent({ name, instructions: `You are ${name}.`, model });
}

const finish =
  (prefix: string): ScriptedResponder =>
  (request) =>
    `${prefix}(${toolOutputsSinceUser(request).join(',')})`;

/** Zed (entry) → Amy and Bob in parallel; Bob → Cal. Names chosen so that sorting matters. */
function build(threads?: ThreadManager) {
  const zed = agent(
    'Zed',
    new ScriptedModel([sends(['Amy', 'to Amy'], ['Bob', 'to Bob']), finish('Zed')]),
  );
  const amy = agent('Amy', new ScriptedModel(['Amy done']));
  const bob = agent('Bob', new ScriptedModel([send('Cal', 'to Cal'), finish('Bob')]));
  const cal = agent('Cal', new ScriptedModel(['Cal done']));
  return new Agency({
    entryPoints: [zed],
    communicationFlows: [
      [zed, amy],
      [zed, bob],
      [bob, cal],
    ],
    ...(threads ? { threads } : {}),
  });
}

describe('Agency threads', () => {
  it('names threads {chat}__{agent}__USER and {chat}__{a}__{b} with the pair sorted', async () => {
    const agency = build();
    await agency.getResponse('go', { chatId: 'c1' });
    const threads = await chatThreads(agency, 'c1');
    expect([...threads.keys()].sort()).toEqual([
      'c1__Amy__Zed',
      'c1__Bob__Cal',
      'c1__Bob__Zed',
      'c1__Zed__USER',
    ]);
    expect(agency.threads.threadId('c1', 'Zed', 'Amy')).toBe('c1__Amy__Zed');
    expect(agency.threads.threadId('c1', 'Amy', 'Zed')).toBe('c1__Amy__Zed');
    expect(agency.threads.threadId('c1', 'Zed')).toBe('c1__Zed__USER');
  });

  it("keeps the sub-agents' conversations out of the caller's user thread", async () => {
    const agency = build();
    await agency.getResponse('go', { chatId: 'c1' });
    const user = (await chatThreads(agency, 'c1')).get('c1__Zed__USER')!;
    expect(user.map((t) => label(t.item))).toEqual([
      'user:go',
      'call:send_message',
      'call:send_message',
      'result:send_message',
      'result:send_message',
      'assistant:Zed(Amy done,Bob(Cal done))',
    ]);
    expect(user.every((t) => t.meta?.agent === 'Zed' && t.meta.callerAgent === null)).toBe(true);
    const serialized = JSON.stringify(user);
    expect(serialized).not.toContain('to Cal');
    expect(serialized).not.toContain('"role":"user","content":"to Amy"');
  });

  it('keeps exactly its exchange in each pair thread', async () => {
    const agency = build();
    const { newItems } = await agency.getResponse('go', { chatId: 'c1' });
    const threads = await chatThreads(agency, 'c1');
    const view = (id: string) =>
      threads.get(id)!.map((t) => `${t.meta?.agent}<-${t.meta?.callerAgent} ${label(t.item)}`);
    expect(view('c1__Amy__Zed')).toEqual(['Amy<-Zed user:to Amy', 'Amy<-Zed assistant:Amy done']);
    expect(view('c1__Bob__Zed')).toEqual([
      'Bob<-Zed user:to Bob',
      'Bob<-Zed call:send_message',
      'Bob<-Zed result:send_message',
      'Bob<-Zed assistant:Bob(Cal done)',
    ]);
    expect(view('c1__Bob__Cal')).toEqual(['Cal<-Bob user:to Cal', 'Cal<-Bob assistant:Cal done']);
    // Items carry the same run ids as newItems.
    const bobRun = newItems.find((t) => t.agent === 'Bob')!.runId;
    expect(threads.get('c1__Bob__Zed')!.every((t) => t.meta?.runId === bobRun)).toBe(true);
    expect(threads.get('c1__Bob__Cal')!.every((t) => t.meta?.parentRunId === bobRun)).toBe(true);
  });

  it('appends a second call with the same chatId to the same threads, and a new chat gets new ones', async () => {
    const zedModel = new ScriptedModel((request) =>
      toolOutputsSinceUser(request).length > 0 ? 'Zed done' : send('Amy', 'ping'),
    );
    const zed = agent('Zed', zedModel);
    const agency = new Agency({
      entryPoints: [zed],
      communicationFlows: [[zed, agent('Amy', new ScriptedModel(['pong'], { repeatLast: true }))]],
    });
    await agency.getResponse('one', { chatId: 'c' });
    await agency.getResponse('two', { chatId: 'c' });
    await agency.getResponse('three', { chatId: 'd' });
    const c = await chatThreads(agency, 'c');
    expect([...c.keys()].sort()).toEqual(['c__Amy__Zed', 'c__Zed__USER']);
    expect(c.get('c__Amy__Zed')!.map((t) => label(t.item))).toEqual([
      'user:ping',
      'assistant:pong',
      'user:ping',
      'assistant:pong',
    ]);
    expect(
      c
        .get('c__Zed__USER')!
        .map((t) => label(t.item))
        .filter((l) => l.startsWith('user:')),
    ).toEqual(['user:one', 'user:two']);
    expect(c.get('c__Zed__USER')).toHaveLength(8);
    expect([...(await chatThreads(agency, 'd')).keys()].sort()).toEqual([
      'd__Amy__Zed',
      'd__Zed__USER',
    ]);
  });

  it('shows each agent the pair thread from its own side', async () => {
    const agency = build();
    await agency.getResponse('go', { chatId: 'c1' });
    const thread = await agency.threads.getThread('c1', 'Bob', 'Cal');
    expect(thread.historyForModel({ as: 'Cal' }).map(label)).toEqual([
      'user:to Cal',
      'assistant:Cal done',
    ]);
    expect(thread.historyForModel({ as: 'Bob' }).map(label)).toEqual([
      'assistant:to Cal',
      'user:Cal done',
    ]);
  });

  it('keeps names containing __ and the name USER apart', async () => {
    const entry = agent(
      'a__b',
      new ScriptedModel([sends(['USER', 'hi user'], ['b', 'hi b']), 'entry done']),
    );
    const userNamed = agent('USER', new ScriptedModel(['from USER']));
    const b = agent('b', new ScriptedModel(['from b']));
    const agency = new Agency({
      entryPoints: [entry],
      communicationFlows: [
        [entry, userNamed],
        [entry, b],
      ],
    });
    await agency.getResponse('go', { chatId: 'x__y' });
    const threads = await chatThreads(agency, 'x__y');
    expect(threads.size).toBe(3);
    expect(threads.get(agency.threads.threadId('x__y', 'a__b'))!.map((t) => label(t.item))[0]).toBe(
      'user:go',
    );
    expect(
      threads.get(agency.threads.threadId('x__y', 'a__b', 'USER'))!.map((t) => label(t.item)),
    ).toEqual(['user:hi user', 'assistant:from USER']);
    expect(
      threads.get(agency.threads.threadId('x__y', 'a__b', 'b'))!.map((t) => label(t.item)),
    ).toEqual(['user:hi b', 'assistant:from b']);
  });

  it('uses the thread manager it is given', async () => {
    const store = new MemoryStore();
    const agency = build(new ThreadManager({ store }));
    await agency.getResponse('go', { chatId: 'mine' });
    expect(
      (await store.listThreads({ chatId: 'mine' })).map((r) => [r.threadId, r.version]),
    ).toEqual([
      ['mine__Amy__Zed', 2],
      ['mine__Bob__Cal', 2],
      ['mine__Bob__Zed', 4],
      ['mine__Zed__USER', 6],
    ]);
  });
});
