import { describe, expect, it } from 'vitest';
import { locateTurn, rootRuns, type ChatItems } from '../../../src/agency/replay/turn.js';
import type { ThreadItem } from '../../../src/stores/item.js';

let clock = 0;
/** An item of run `runId` (child of `parent`), produced by `agent` for `caller`. */
function entry(
  id: string,
  role: 'user' | 'assistant',
  agent: string,
  runId: string,
  parent: string | null = null,
  caller: string | null = null,
): ThreadItem {
  clock += 1;
  return {
    id,
    item: { role, content: id } as ThreadItem['item'],
    meta: {
      agent,
      callerAgent: caller,
      runId,
      parentRunId: parent,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(),
    },
  };
}

/** Three turns; the second and third asked B (a nested run in the pair thread). */
function chat(): ChatItems {
  return new Map([
    [
      'c__A__USER',
      [
        entry('u1', 'user', 'A', 'r1'),
        entry('a1', 'assistant', 'A', 'r1'),
        entry('u2', 'user', 'A', 'r2'),
        entry('a2', 'assistant', 'A', 'r2'),
        entry('u3', 'user', 'A', 'r3'),
        entry('a3', 'assistant', 'A', 'r3'),
      ],
    ],
    [
      'c__A__B',
      [
        entry('m2', 'user', 'B', 'r2b', 'r2', 'A'),
        entry('b2', 'assistant', 'B', 'r2b', 'r2', 'A'),
        entry('m3', 'user', 'B', 'r3b', 'r3', 'A'),
        entry('b3', 'assistant', 'B', 'r3b', 'r3', 'A'),
      ],
    ],
  ]);
}

describe('locateTurn', () => {
  it('finds the turn of a nested item and keeps every thread up to that turn', () => {
    const turn = locateTurn(chat(), 'c', 'b2');
    expect(turn.rootRunId).toBe('r2');
    expect(turn.entryAgent).toBe('A');
    expect(turn.start).toMatchObject({ threadId: 'c__A__USER', position: 2 });
    expect(turn.at).toMatchObject({ threadId: 'c__A__B', position: 1 });
    expect(turn.keep).toEqual({ c__A__USER: 2, c__A__B: 0 });
  });

  it('keeps the earlier turns of every thread for a later turn', () => {
    expect(locateTurn(chat(), 'c', 'u3').keep).toEqual({ c__A__USER: 4, c__A__B: 2 });
    expect(locateTurn(chat(), 'c', 'u1').keep).toEqual({ c__A__USER: 0, c__A__B: 0 });
  });

  it('maps every run to the run at the top of its call tree', () => {
    const roots = rootRuns(chat());
    expect([roots.get('r2b'), roots.get('r3'), roots.get('r1')]).toEqual(['r2', 'r3', 'r1']);
  });

  it('names an unknown item and an item without origin', () => {
    expect(() => locateTurn(chat(), 'c', 'zz')).toThrow(/Chat "c" has no item "zz"/);
    const imported = chat();
    imported
      .get('c__A__USER')!
      .push({ id: 'x', item: { role: 'user', content: 'x' } as ThreadItem['item'] });
    expect(() => locateTurn(imported, 'c', 'x')).toThrow(/has no origin/);
  });
});
