/**
 * A turn costs the same at turn 250 as at turn 10: what a turn writes to the store (calls and
 * bytes) and what it reads of the conversation so far do not grow with the run. Counted, not
 * timed (`bench/ensembles.ts` times it).
 */
import { describe, expect, it } from 'vitest';
import { runEnsemble } from '../../src/ensembles/run.js';
import type { Ensemble } from '../../src/ensembles/schema.js';
import { ScriptedModel } from '../../src/models/scriptedModel.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { MemoryStore } from '../../src/stores/memory.js';
import { SqliteStore } from '../../src/stores/sqlite.js';
import type { ThreadStore } from '../../src/stores/types.js';
import { comparable, ensembleFrom, tempDir } from './helpers.js';

/** One LLM agent that triggers itself, for `turns` turns (its conversation grows each turn). */
function talker(turns: number): Ensemble {
  return ensembleFrom(
    `name: loop\nagents:\n  - name: talker\n    model_profile: p\n    system_prompt: x\n` +
      `    depends_on: [{ agent_name: talker, condition: 'true', max_executions: ${turns + 1} }]\n` +
      `    conversation: { max_turns: ${turns + 1}, triggers_conversation: true }\n` +
      `conversation_limits: { max_total_turns: ${turns}, timeout_seconds: 600 }\n`,
    tempDir(),
  );
}

const model = () => new ScriptedModel(['{"ok": true}'], { repeatLast: true });

const METHODS = [
  'getThread',
  'readItems',
  'append',
  'appendMany',
  'setMetadata',
  'listThreads',
  'fork',
  'rollback',
  'deleteThread',
  'putCheckpoint',
  'listCheckpoints',
  'getCheckpoint',
] as const;

/** Store calls of one turn: the method names, and the JSON bytes the writes handed over. */
interface TurnCalls {
  calls: string[];
  bytes: number;
}

/** Wraps every method of `store` to file its calls under the turn being run. */
function countCalls(store: ThreadStore): { turns: TurnCalls[]; next(): void } {
  const turns: TurnCalls[] = [{ calls: [], bytes: 0 }];
  const target = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of METHODS) {
    const original = target[method];
    if (typeof original !== 'function') continue;
    target[method] = (...args: unknown[]) => {
      const turn = turns.at(-1)!;
      turn.calls.push(method);
      if (['append', 'appendMany', 'setMetadata', 'putCheckpoint'].includes(method))
        turn.bytes += JSON.stringify(args).length;
      return original.apply(store, args);
    };
  }
  return { turns, next: () => turns.push({ calls: [], bytes: 0 }) };
}

describe('the cost of a turn does not grow with the run', () => {
  it('each turn is one store transaction (appendMany), with the same bytes at turn 250 as at turn 10', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    const counted = countCalls(store);
    try {
      const result = await runEnsemble(talker(250), {
        store,
        createModel: model,
        input: 'go',
        onEvent: (event) => {
          if (event.type === 'turn_recorded') counted.next();
        },
      });
      expect(result.turn_count).toBe(250);
      // counted.turns[k] holds what was written before turn k + 1 was recorded (its sub-thread
      // items, its turn item and the head, together), after the run's start (turn 1).
      const [first, ...rest] = counted.turns.slice(0, 250);
      expect(first!.calls).toContain('appendMany');
      for (const turn of rest) expect(turn.calls).toEqual(['appendMany']);
      const at10 = counted.turns[9]!.bytes;
      const at250 = counted.turns[249]!.bytes;
      // Only numbers get longer (turn 250, its positions and versions): a few dozen bytes.
      expect(at250 - at10).toBeLessThan(100);
      expect(at250).toBeLessThan(at10 * 1.1);
    } finally {
      await store.close();
    }
  });

  it('stores without appendMany write each turn in the same few calls, in order', async () => {
    const store = new MemoryStore();
    const counted = countCalls(store);
    await runEnsemble(talker(60), {
      store,
      createModel: model,
      onEvent: (event) => {
        if (event.type === 'turn_recorded') counted.next();
      },
    });
    // Sub-thread items first, then the turn item and the head: a crash between them leaves
    // items a resume cuts (see fanOut.resume.test.ts), never a head counting missing items.
    for (const turn of counted.turns.slice(1, 60))
      expect(turn.calls).toEqual(['append', 'append', 'setMetadata']);
    expect(counted.turns[59]!.bytes - counted.turns[9]!.bytes).toBeLessThan(100);
  });

  it('after a resume, each turn builds its model input without reading the earlier items again', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    await expect(
      runEnsemble(talker(40), {
        store,
        runId: 'cost-1',
        createModel: model,
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'turn_recorded' && event.turn_count === 20) controller.abort();
        },
      }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
    // The resumed run reads the agent's sub-thread from the store once; count every read of an
    // entry's `item` (the message a model input is built from).
    let reads = 0;
    let loaded = 0;
    const readItems = store.readItems.bind(store);
    store.readItems = async (threadId, range) => {
      const items = await readItems(threadId, range);
      if (threadId !== 'cost-1::talker') return items;
      loaded += items.length;
      return items.map((entry): ThreadItem => {
        const { item, ...rest } = entry;
        return Object.defineProperty({ ...rest } as ThreadItem, 'item', {
          enumerable: true,
          get: () => {
            reads += 1;
            return item;
          },
        });
      });
    };
    const resumed = await runEnsemble(talker(40), {
      store,
      runId: 'cost-1',
      resume: true,
      createModel: model,
    });
    expect(resumed.turn_count).toBe(40);
    expect(loaded).toBe(40); // 20 turns: a user message and a reply each
    // Once, when the sub-thread is cached; not once per turn (that would be 20 x 40 and more).
    expect(reads).toBeLessThanOrEqual(loaded);
    const uninterrupted = await runEnsemble(talker(40), { createModel: model });
    expect(comparable(resumed)).toEqual(comparable(uninterrupted));
  });
});
