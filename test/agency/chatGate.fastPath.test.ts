import { describe, expect, it, vi } from 'vitest';
import { ChatGate } from '../../src/agency/chatGate.js';
import { needsChatLease } from '../../src/agency/chatLease.js';
import { MemoryLeases } from '../../src/stores/lease.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { ThreadStore } from '../../src/stores/types.js';

describe('ChatGate.tryEnter', () => {
  it('lets a call in at once on an idle chat, and refuses while one runs or waits', async () => {
    const gate = new ChatGate();
    const leave = gate.tryEnter('c');
    expect(leave).toBeTypeOf('function');
    expect(gate.busy('c')).toBe(true);
    expect(gate.tryEnter('c')).toBeUndefined();
    // A waiting call queues behind the one admitted by tryEnter.
    const order: string[] = [];
    const next = gate.enter('c', 1000).then((leaveNext) => (order.push('next'), leaveNext));
    // Admission is promise-driven: once pending callbacks have run, it would have happened.
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    leave!();
    (await next)();
    expect(order).toEqual(['next']);
    const free = () => expect(gate.busy('c'), 'the chat is free once every call left').toBe(false);
    await vi.waitFor(free, { timeout: 1_000 });
    expect(gate.tryEnter('c')).toBeTypeOf('function');
  });
});

describe('needsChatLease', () => {
  it('is true for stores with leases except the in-process memory store', () => {
    const withLeases = { kind: 'sqlite', leases: new MemoryLeases() } as unknown as ThreadStore;
    const without = { kind: 'custom' } as unknown as ThreadStore;
    expect(needsChatLease(withLeases)).toBe(true);
    expect(needsChatLease(without)).toBe(false);
    expect(needsChatLease(new MemoryStore())).toBe(false);
  });
});
