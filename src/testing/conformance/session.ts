/** Conformance: the store as the SDK's `Session` through {@link ThreadSession}. @module */
import { Agent, Runner, tool } from '@openai/agents-core';
import type { AgentInputItem } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConflictError } from '../../errors.js';
import { ScriptedModel } from '../../models/scriptedModel.js';
import { isArchiveThreadId } from '../../stores/common.js';
import type { ThreadStore } from '../../stores/types.js';
import { ThreadSession } from '../../threads/threadSession.js';
import type { StoreHandle } from './helpers.js';

const user = (text: string): AgentInputItem => ({ role: 'user', content: text });
const texts = (list: AgentInputItem[]): string[] =>
  list.map((i) => ('content' in i ? JSON.stringify(i.content) : (i.type ?? '')));

/** A store whose first `getThread` is followed by another writer's append (a lost race). */
function racingStore(store: ThreadStore, threadId: string): ThreadStore & { raced: number } {
  let raced = 0;
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'raced') return raced;
      if (prop === 'getThread') {
        return async (id: string) => {
          const record = await target.getThread(id);
          if (raced === 0 && id === threadId) {
            raced += 1;
            await target.append(id, [{ id: 'other-0', item: user('other writer') }], {
              expectedVersion: record?.version ?? 0,
            });
          }
          return record;
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as ThreadStore & { raced: number };
}

/** ThreadSession over the store: the SDK Session contract, and the SDK Runner on top of it. */
export function sessionTests(store: StoreHandle): void {
  describe('ThreadSession', () => {
    it('starts empty, adds items in order and reads the newest `limit` oldest first', async () => {
      const session = new ThreadSession({ store: store(), sessionId: 's1', chatId: 'c1' });
      expect(await session.getSessionId()).toBe('s1');
      expect(await session.getItems()).toEqual([]);
      await session.addItems([user('a'), user('b')]);
      await session.addItems([]);
      await session.addItems([user('c')]);
      expect(await session.getItems()).toEqual([user('a'), user('b'), user('c')]);
      expect(await session.getItems(2)).toEqual([user('b'), user('c')]);
      expect(await session.getItems(10)).toHaveLength(3);
      expect(await session.getItems(0)).toEqual([]);
      expect(await store().getThread('s1')).toMatchObject({ version: 3, chatId: 'c1' });
      const other = new ThreadSession({ store: store(), sessionId: 's1' });
      expect(await other.getItems()).toEqual([user('a'), user('b'), user('c')]);
    });

    it('retries an append that lost a race, after re-reading the version', async () => {
      const racing = racingStore(store(), 's1');
      await new ThreadSession({ store: racing, sessionId: 's1' }).addItems([user('mine')]);
      expect(racing.raced).toBe(1);
      expect(
        texts(await new ThreadSession({ store: store(), sessionId: 's1' }).getItems()),
      ).toEqual(['"other writer"', '"mine"']);
      const once = new ThreadSession({
        store: racingStore(store(), 's2'),
        sessionId: 's2',
        maxAppendAttempts: 1,
      });
      await expect(once.addItems([user('x')])).rejects.toBeInstanceOf(ConflictError);
    });

    it('pops the last item, keeping it in an archive thread by default', async () => {
      const session = new ThreadSession({ store: store(), sessionId: 's1' });
      expect(await session.popItem()).toBeUndefined();
      await session.addItems([user('a'), user('b')]);
      expect(await session.popItem()).toEqual(user('b'));
      expect(await session.getItems()).toEqual([user('a')]);
      const archives = (await store().listThreads()).filter((t) => isArchiveThreadId(t.threadId));
      expect(archives).toHaveLength(1);
      expect(texts((await store().readItems(archives[0]!.threadId)).map((e) => e.item))).toEqual([
        '"a"',
        '"b"',
      ]);
      await session.addItems([user('c')]);
      expect(await session.getItems()).toEqual([user('a'), user('c')]);
      expect(await session.popItem()).toEqual(user('c'));
      expect(await session.popItem()).toEqual(user('a'));
      expect(await session.popItem()).toBeUndefined();
    });

    it('deletes the archive of a pop when keepPoppedItems is false', async () => {
      const session = new ThreadSession({
        store: store(),
        sessionId: 's1',
        keepPoppedItems: false,
      });
      await session.addItems([user('a'), user('b')]);
      expect(await session.popItem()).toEqual(user('b'));
      expect((await store().listThreads()).map((t) => t.threadId)).toEqual(['s1']);
    });

    it('clears the session, after which it starts again from nothing', async () => {
      const session = new ThreadSession({ store: store(), sessionId: 's1' });
      await session.addItems([user('a')]);
      await session.clearSession();
      expect(await store().getThread('s1')).toBeNull();
      expect(await session.getItems()).toEqual([]);
      await session.addItems([user('b')]);
      expect(await session.getItems()).toEqual([user('b')]);
    });

    it('gives a Runner its history: the second request holds the first turn exactly once', async () => {
      const model = new ScriptedModel([
        { tool: 'lookup', args: {} },
        'First answer.',
        'Second answer.',
      ]);
      const lookup = tool({
        name: 'lookup',
        description: 'Looks up.',
        parameters: z.object({}),
        execute: async () => 'looked up',
      });
      const agent = new Agent({
        name: 'Sessioned',
        instructions: 'Answer.',
        model,
        tools: [lookup],
      });
      const runner = new Runner({ tracingDisabled: true });
      const first = await runner.run(agent, 'Hello there', {
        session: new ThreadSession({ store: store(), sessionId: 's1' }),
      });
      expect(first.finalOutput).toBe('First answer.');
      const second = await runner.run(agent, 'Once more', {
        session: new ThreadSession({ store: store(), sessionId: 's1' }),
      });
      expect(second.finalOutput).toBe('Second answer.');
      const input = model.calls[2]!.request.input as AgentInputItem[];
      const count = (pred: (item: AgentInputItem) => boolean) => input.filter(pred).length;
      expect(
        count(
          (i) =>
            'role' in i && i.role === 'user' && JSON.stringify(i.content).includes('Hello there'),
        ),
      ).toBe(1);
      expect(count((i) => i.type === 'function_call')).toBe(1);
      expect(count((i) => i.type === 'function_call_result')).toBe(1);
      expect(count((i) => JSON.stringify(i).includes('First answer.'))).toBe(1);
      expect(count((i) => JSON.stringify(i).includes('Once more'))).toBe(1);
      expect(input).toHaveLength(5);
      const stored = await new ThreadSession({ store: store(), sessionId: 's1' }).getItems();
      expect(stored).toHaveLength(6);
      expect(JSON.stringify(stored.at(-1))).toContain('Second answer.');
    });
  });
}
