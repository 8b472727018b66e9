// Must-show 2 of the "what if?" issue: a replay answers every model call before the change from
// the original chat (zero calls on the scripted models), makes the changed agent's calls live,
// and lists exactly the items that differ.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agency } from '../../../src/agency/agency.js';
import { replayChat } from '../../../src/agency/replay/replay.js';
import { poemsAgency } from './poemsAgency.js';
import { toolOutputsSinceUser } from '../../../src/models/requestText.js';
import { ScriptedModel } from '../../../src/models/scriptedModel.js';
import { SqliteStore } from '../../../src/stores/sqlite.js';
import { threadIdFor } from '../../../src/threads/threadId.js';

const agencies: Agency[] = [];
afterEach(async () => {
  for (const agency of agencies.splice(0)) await agency.close();
});

function build() {
  const built = poemsAgency();
  agencies.push(built.agency);
  return built;
}

/** Runs two turns and returns the ids of the second turn's user message and Writer's answer. */
async function twoTurns(agency: Agency) {
  const chatId = 'chat_original';
  await agency.getResponse('tides', { chatId });
  await agency.getResponse('rivers', { chatId });
  const store = agency.threads.store;
  const user = await store.readItems(threadIdFor(chatId, 'Coordinator'));
  const pair = await store.readItems(threadIdFor(chatId, 'Coordinator', 'Writer'));
  const secondUser = user.find(
    (entry) =>
      'role' in entry.item && entry.item.role === 'user' && entry.item.content === 'rivers',
  )!;
  const writerAnswer = pair.at(-1)!;
  return { chatId, secondUser, writerAnswer, userThread: user };
}

describe('replayChat', () => {
  it('replays the calls before the change with zero model calls and makes the changed agent live', async () => {
    const { agency, coordinatorModel, writerModel } = build();
    const { chatId, secondUser, userThread } = await twoTurns(agency);
    const before = { coordinator: coordinatorModel.calls.length, writer: writerModel.calls.length };
    expect(before).toEqual({ coordinator: 4, writer: 2 });

    const result = await replayChat(agency, {
      chatId,
      at: secondUser.id,
      set: { Writer: { instructions: 'Be brief.' } },
    });

    // Coordinator's first call (before the change) was answered from the chat: the only new call
    // on its model is the last one, whose input carries Writer's new answer.
    const coordinatorCalls = coordinatorModel.calls.slice(before.coordinator);
    expect(coordinatorCalls).toHaveLength(1);
    expect(toolOutputsSinceUser(coordinatorCalls[0]!.request)).toEqual(['rivers.']);
    // Writer's call is new, with the changed instructions.
    const writerCalls = writerModel.calls.slice(before.writer);
    expect(writerCalls).toHaveLength(1);
    expect(writerCalls[0]!.request.systemInstructions).toContain('Be brief.');
    expect(result.modelCalls).toEqual({
      replayed: 1,
      live: 2,
      byAgent: { Coordinator: { replayed: 1, live: 1 }, Writer: { replayed: 0, live: 1 } },
    });

    // The fork keeps the first turn and holds the new second one; the original is untouched.
    expect(result.forkOf).toBe(chatId);
    expect(result.chatId).not.toBe(chatId);
    expect(result.finalOutput).toBe('Here it is: rivers.');
    const store = agency.threads.store;
    const fork = await store.readItems(threadIdFor(result.chatId, 'Coordinator'));
    expect(fork.slice(0, 4).map((entry) => entry.id)).toEqual(
      userThread.slice(0, 4).map((entry) => entry.id),
    );
    expect(fork).toHaveLength(8);
    expect(await store.readItems(threadIdFor(chatId, 'Coordinator'))).toHaveLength(8);

    // Exactly the differing items: Writer's answer, the tool result carrying it, Coordinator's
    // answer, both final answers, and the usage of both agents.
    expect(
      result.differences.map(({ agent, kind, original, replay }) => ({
        agent,
        kind,
        original,
        replay,
      })),
    ).toEqual([
      {
        agent: 'Coordinator',
        kind: 'tool_result',
        original: 'A long poem about rivers, verse after verse.',
        replay: 'rivers.',
      },
      {
        agent: 'Coordinator',
        kind: 'message',
        original: 'Here it is: A long poem about rivers, verse after verse.',
        replay: 'Here it is: rivers.',
      },
      {
        agent: 'Coordinator',
        kind: 'final_answer',
        original: 'Here it is: A long poem about rivers, verse after verse.',
        replay: 'Here it is: rivers.',
      },
      {
        agent: 'Writer',
        kind: 'message',
        original: 'A long poem about rivers, verse after verse.',
        replay: 'rivers.',
      },
      {
        agent: 'Writer',
        kind: 'final_answer',
        original: 'A long poem about rivers, verse after verse.',
        replay: 'rivers.',
      },
      {
        agent: 'Writer',
        kind: 'usage',
        original: { inputTokens: 20, outputTokens: 30, cost: null },
        replay: { inputTokens: 7, outputTokens: 2, cost: null },
      },
    ]);
    // The unchanged steps are in the branches, side by side, but not among the differences.
    const original = result.branches.original.agents.find((a) => a.agent === 'Coordinator')!;
    const replay = result.branches.replay.agents.find((a) => a.agent === 'Coordinator')!;
    expect(original.steps[1]).toMatchObject({ kind: 'tool_call' });
    expect(replay.steps[1]!.text).toBe(original.steps[1]!.text);
    expect(replay.usage).toEqual({ inputTokens: 20, outputTokens: 10, cost: null });
    const writerRows = result.sideBySide.find((side) => side.agent === 'Writer')!.rows;
    expect(writerRows.map((row) => [row.original?.kind, row.same])).toEqual([
      ['input', true],
      ['message', false],
    ]);
  });

  it('replays a whole turn with no model call when nothing changes', async () => {
    const { agency, coordinatorModel, writerModel } = build();
    const { chatId, secondUser } = await twoTurns(agency);
    const calls = coordinatorModel.calls.length + writerModel.calls.length;
    const result = await replayChat(agency, { chatId, at: secondUser.id });
    expect(coordinatorModel.calls.length + writerModel.calls.length).toBe(calls);
    expect(result.modelCalls).toMatchObject({ replayed: 3, live: 0 });
    expect(result.differences).toEqual([]);
  });

  it('changes the user message: the entry point answers live', async () => {
    const { agency, writerModel } = build();
    const { chatId, secondUser } = await twoTurns(agency);
    const result = await replayChat(agency, { chatId, at: secondUser.id, message: 'lakes' });
    expect(result.finalOutput).toBe('Here it is: A long poem about lakes, verse after verse.');
    expect(result.modelCalls).toMatchObject({ replayed: 0, live: 3 });
    expect(writerModel.calls.at(-1)!.request.input).toBeDefined();
    expect(result.differences.map((d) => `${d.agent}:${d.kind}`)).toEqual([
      'Coordinator:input',
      'Coordinator:tool_call',
      'Coordinator:tool_result',
      'Coordinator:message',
      'Coordinator:final_answer',
      'Writer:input',
      'Writer:message',
      'Writer:final_answer',
    ]);
  });

  it('runs again from an item inside the turn: the calls before it are replayed', async () => {
    const { agency, coordinatorModel, writerModel } = build();
    const { chatId, writerAnswer } = await twoTurns(agency);
    const before = { coordinator: coordinatorModel.calls.length, writer: writerModel.calls.length };
    const result = await replayChat(agency, { chatId, at: writerAnswer.id });
    // Writer's answer is made again (the same, its model is scripted), so Coordinator's last call
    // has its recorded input again and is replayed too.
    expect(writerModel.calls.length - before.writer).toBe(1);
    expect(coordinatorModel.calls.length).toBe(before.coordinator);
    expect(result.modelCalls).toMatchObject({ replayed: 2, live: 1 });
    expect(result.differences).toEqual([]);
  });

  it('works on a SQLite store, with the tokens of the original turn from its trace', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'colloquy-replay-'));
    const store = new SqliteStore({ path: path.join(dir, 'chats.db') });
    try {
      const built = poemsAgency(store);
      const { chatId, secondUser } = await twoTurns(built.agency);
      const result = await replayChat(built.agency, {
        chatId,
        at: secondUser.id,
        set: { Writer: { instructions: 'Be brief.' } },
      });
      expect(result.modelCalls).toMatchObject({ replayed: 1, live: 2 });
      const writer = result.branches.original.agents.find((a) => a.agent === 'Writer')!;
      expect(writer.usage).toEqual({ inputTokens: 20, outputTokens: 30, cost: null });
      expect(
        await store.readItems(threadIdFor(result.chatId, 'Coordinator', 'Writer')),
      ).toHaveLength(4);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses another model for a changed agent', async () => {
    const { agency, writerModel } = build();
    const { chatId, secondUser } = await twoTurns(agency);
    const other = new ScriptedModel(['A haiku.'], { name: 'other' });
    const before = writerModel.calls.length;
    const result = await replayChat(agency, {
      chatId,
      at: secondUser.id,
      set: { Writer: { model: other } },
    });
    expect(other.calls).toHaveLength(1);
    expect(writerModel.calls.length).toBe(before);
    expect(result.finalOutput).toBe('Here it is: A haiku.');
  });

  it('names the bad agent, key or item', async () => {
    const { agency } = build();
    const { chatId, secondUser } = await twoTurns(agency);
    await expect(
      replayChat(agency, { chatId, at: secondUser.id, set: { Editor: { instructions: 'x' } } }),
    ).rejects.toThrow(
      /set\.Editor: "Editor" is not an agent of agency "poems"\. Agents: Coordinator, Writer/,
    );
    await expect(
      replayChat(agency, { chatId, at: secondUser.id, set: { Writer: { tools: [] } as never } }),
    ).rejects.toThrow(/set\.Writer\.tools: a replay changes only "instructions" or "model"/);
    await expect(replayChat(agency, { chatId, at: 'nope' })).rejects.toMatchObject({
      code: 'THREAD_NOT_FOUND',
    });
    await expect(replayChat(agency, { chatId: 'chat_none', at: 'nope' })).rejects.toMatchObject({
      code: 'CHAT_NOT_FOUND',
    });
  });
});
