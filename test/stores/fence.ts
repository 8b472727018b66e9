/**
 * The lease-fence case shared by every store that takes leases: a holder whose lease expired
 * and was taken by another holder must not write, whatever the write (append, metadata, fork,
 * reset, delete, checkpoint); the new holder writes normally. Deterministic: the lost lease is
 * simulated by letting it expire and another owner take it.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { isLeaseLost, LeaseLostError, withFence } from '../../src/stores/fence.js';
import type { ThreadItem } from '../../src/stores/item.js';
import type { ThreadStore } from '../../src/stores/types.js';

const items = (...ids: string[]): ThreadItem[] =>
  ids.map((id) => ({ id, item: { role: 'user', content: id } }));

async function refused(work: Promise<unknown>): Promise<void> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'the write was not refused').toBeInstanceOf(LeaseLostError);
  expect(isLeaseLost(error)).toBe(true);
  expect((error as Error).message).toMatch(/lease "chat:c" it was made under is no longer held/);
}

/** Runs the frozen-holder case on `store` (which must offer leases). */
export async function frozenHolderCannotWrite(store: ThreadStore): Promise<void> {
  const leases = store.leases!;
  await store.append('t', items('A'), { expectedVersion: 0, chatId: 'c' });
  expect(await leases.acquire('chat:c', 'old', 60_000)).toBe(true);
  const old = { key: 'chat:c', owner: 'old' };
  // While held, the holder's fenced writes land.
  await withFence(old, () => store.append('t', items('a'), { expectedVersion: 1 }));
  // The holder "freezes" and its lease goes (released here, as its expiry would; the real
  // expiry is checked below) and another holder takes the chat and writes.
  await leases.release('chat:c', 'old');
  expect(await leases.acquire('chat:c', 'new', 5_000)).toBe(true);
  const fresh = { key: 'chat:c', owner: 'new' };
  await withFence(fresh, () => store.append('t', items('B', 'b'), { expectedVersion: 2 }));
  // The old holder thaws: each of its writes is refused, and nothing of them lands.
  await withFence(old, async () => {
    await refused(store.append('t', items('A2'), { expectedVersion: 4 }));
    await refused(store.append('u', items('x'), { expectedVersion: 0, chatId: 'c' }));
    await refused(store.setMetadata('t', { late: true }));
    await refused(store.fork('t', 't-fork'));
    await refused(store.rollback('t', 1));
    await refused(store.deleteThread('t'));
    const checkpoint = {
      checkpointId: 'cp-late',
      chatId: 'c',
      label: null,
      createdAt: new Date().toISOString(),
      threads: { t: 4 },
    };
    await refused(store.putCheckpoint(checkpoint));
  });
  expect((await store.readItems('t')).map((item) => item.id)).toEqual(['A', 'a', 'B', 'b']);
  expect((await store.getThread('t'))?.metadata).toEqual({});
  expect(await store.getThread('u')).toBeNull();
  expect(await store.getThread('t-fork')).toBeNull();
  expect(await store.getCheckpoint('cp-late')).toBeNull();
  // Released: the old owner still cannot write; unfenced writes are not affected.
  await leases.release('chat:c', 'new');
  await withFence(old, () => refused(store.append('t', items('late'), { expectedVersion: 4 })));
  expect(await store.append('t', items('free'), { expectedVersion: 4 })).toBe(5);
  // Nested fences are all checked: a lost outer lease refuses the inner holder's write.
  expect(await leases.acquire('chat:c', 'inner', 5_000)).toBe(true);
  await withFence(old, () =>
    withFence({ key: 'chat:c', owner: 'inner' }, () =>
      refused(store.append('t', items('nested'), { expectedVersion: 5 })),
    ),
  );
  expect(await store.getThread('t')).toMatchObject({ version: 5 });
  // A real expiry: a 50 ms lease, taken by another owner once it expired.
  expect(await leases.acquire('chat:e', 'frozen', 50)).toBe(true);
  while (!(await leases.acquire('chat:e', 'taker', 5_000))) await sleep(20);
  const late = withFence({ key: 'chat:e', owner: 'frozen' }, () =>
    store.append('e', items('late'), { expectedVersion: 0, chatId: 'e' }),
  );
  await expect(late).rejects.toBeInstanceOf(LeaseLostError);
  expect(await store.getThread('e')).toBeNull();
}
