import { describe, expect, it, vi } from 'vitest';
import { ChatBusyError, ChatGate, gateOf } from '../../src/agency/chatGate.js';
import { withChatLease } from '../../src/agency/chatLease.js';
import { MemoryLeases } from '../../src/stores/lease.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadStore } from '../../src/stores/types.js';

describe('ChatGate', () => {
  it('lets calls of one chat in one at a time, in order, and other chats at once', async () => {
    const gate = new ChatGate();
    const order: string[] = [];
    const leaveA = await gate.enter('c', 1000);
    const b = gate.enter('c', 1000).then((leave) => (order.push('b'), leave));
    const c = gate.enter('c', 1000).then((leave) => (order.push('c'), leave));
    const other = await gate.enter('d', 0);
    expect(gate.busy('c')).toBe(true);
    expect(order).toEqual([]);
    leaveA();
    (await b)();
    (await c)();
    other();
    expect(order).toEqual(['b', 'c']);
    const free = () => expect(gate.busy('c'), 'the chat is free once every call left').toBe(false);
    await vi.waitFor(free, { timeout: 1_000 });
  });

  it('fails with ChatBusyError after the wait, and with the abort reason on a signal', async () => {
    const gate = new ChatGate();
    const leave = await gate.enter('c', 0);
    await expect(gate.enter('c', 10)).rejects.toBeInstanceOf(ChatBusyError);
    const controller = new AbortController();
    const waiting = gate.enter('c', 10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    leave();
    // Waiters that gave up do not block the next call.
    (await gate.enter('c', 100))();
  });

  it('is shared by every agency over one store object', () => {
    const store = new MemoryStore();
    expect(gateOf(store)).toBe(gateOf(store));
    expect(gateOf(store)).not.toBe(gateOf(new MemoryStore()));
  });
});

describe('withChatLease', () => {
  const leasing = (leases: MemoryLeases) => ({ kind: 'test', leases }) as unknown as ThreadStore;

  it('holds the chat lease while the work runs, and releases it after', async () => {
    const leases = new MemoryLeases();
    const result = await withChatLease(leasing(leases), 'c', 0, undefined, async () => {
      expect(await leases.acquire('chat:c', 'someone else', 1000)).toBe(false);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await leases.acquire('chat:c', 'someone else', 1000)).toBe(true);
  });

  it('fails with CHAT_BUSY when another owner holds the chat', async () => {
    const leases = new MemoryLeases();
    await leases.acquire('chat:c', 'other process', 10_000);
    const error = await withChatLease(leasing(leases), 'c', 30, undefined, async () => 'x').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChatBusyError);
    expect((error as Error).message).toMatch(/in another process/);
  });

  it('just runs the work on stores without leases', async () => {
    const store = { kind: 'plain' } as unknown as ThreadStore;
    expect(await withChatLease(store, 'c', 0, undefined, async () => 42)).toBe(42);
  });
});
