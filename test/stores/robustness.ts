/**
 * Checks for networked stores beyond the conformance suite: many writers on separate connections
 * agree on one order, and a lost connection surfaces as a transient `StoreError` (never hangs, is
 * never swallowed) and the store recovers once the server is back.
 * @module
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, StoreError } from '../../src/errors.js';
import type { ThreadStore } from '../../src/stores/types.js';
import type { ThreadItem } from '../../src/stores/item.js';
import { uniqueName } from '../setup/serviceUrls.js';
import type { IsolatedBackend } from './isolatedStores.js';
import { startTcpProxy, type TcpProxy } from './tcpProxy.js';

const item = (n: number): ThreadItem => ({
  id: `w-${n}`,
  item: { role: 'user', content: `writer ${n}` },
});

/** Appends one item, re-reading the version after each conflict; returns the version it made. */
async function appendWithRetry(
  store: ThreadStore,
  threadId: string,
  entry: ThreadItem,
): Promise<number> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const version = (await store.getThread(threadId))?.version ?? 0;
    try {
      return await store.append(threadId, [entry], { expectedVersion: version });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  throw new Error(`writer ${entry.id} never got its append in after 1000 conflicts`);
}

/** A URL like `url` but through the proxy's port. */
function via(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.port = String(proxy.port);
  return parsed.toString();
}

/** Registers the robustness checks for one backend. */
export function runRobustnessTests(backend: IsolatedBackend): void {
  const title = backend.skip
    ? `${backend.name} robustness (skipped: ${backend.skip})`
    : `${backend.name} robustness`;
  describe.skipIf(Boolean(backend.skip))(title, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('50 concurrent writers on 5 connections: every item exactly once, in one consistent order', async () => {
      const namespace = uniqueName('test');
      const stores = Array.from({ length: 5 }, () => backend.open(namespace));
      cleanups.push(async () => {
        await Promise.all(stores.map((s) => s.close()));
        await backend.drop(namespace);
      });
      const landed = await Promise.all(
        Array.from({ length: 50 }, (_, n) => appendWithRetry(stores[n % 5]!, 'hot', item(n))),
      );
      expect([...landed].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      const order = (await stores[0]!.readItems('hot')).map((i) => i.id);
      // Each writer's item sits exactly where its append said it did.
      expect(order).toEqual(
        landed
          .map((_, n) => n)
          .sort((a, b) => landed[a]! - landed[b]!)
          .map((n) => `w-${n}`),
      );
      for (const store of stores) {
        expect((await store.readItems('hot')).map((i) => i.id)).toEqual(order);
        expect((await store.readItems('hot', { newest: 7 })).map((i) => i.id)).toEqual(
          order.slice(-7),
        );
        expect((await store.readItems('hot', { from: 20, limit: 5 })).map((i) => i.id)).toEqual(
          order.slice(20, 25),
        );
      }
    });

    it('a dropped connection surfaces as a transient StoreError, and the store recovers', async () => {
      const target = new URL(backend.url());
      const proxy = await startTcpProxy('127.0.0.1', Number(target.port));
      const namespace = uniqueName('test');
      const store = backend.open(namespace, via(backend.url(), proxy));
      cleanups.push(async () => {
        await proxy.close();
        await store.close();
        await backend.drop(namespace);
      });
      expect(await store.append('t', [item(0)], { expectedVersion: 0 })).toBe(1);
      await proxy.drop();
      for (let i = 0; i < 3; i++) {
        const error = await store.readItems('t').then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, `read ${i} after the drop`).toBeInstanceOf(StoreError);
        expect(error).toMatchObject({ code: 'STORE_ERROR', transient: true });
        expect((error as Error).message).toMatch(/transient/);
      }
      await proxy.restore();
      await expect
        .poll(
          () =>
            store.readItems('t').then(
              (r) => r.length,
              () => -1,
            ),
          { timeout: 10_000 },
        )
        .toBe(1);
      expect(await store.append('t', [item(1)], { expectedVersion: 1 })).toBe(2);
    });

    it('a connection dropped mid-request rejects that request with a transient StoreError', async () => {
      const proxy = await startTcpProxy('127.0.0.1', Number(new URL(backend.url()).port));
      const namespace = uniqueName('test');
      const store = backend.open(namespace, via(backend.url(), proxy));
      cleanups.push(async () => {
        await proxy.close();
        await store.close();
        await backend.drop(namespace);
      });
      expect(await store.append('t', [item(0)], { expectedVersion: 0 })).toBe(1);
      proxy.hold();
      const pending = store.append('t', [item(1)], { expectedVersion: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const inFlight = () =>
        expect(proxy.heldBytes(), 'the append reached the held proxy').toBeGreaterThan(0);
      await vi.waitFor(inFlight, { timeout: 5_000 });
      await proxy.drop();
      const error = await pending;
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ code: 'STORE_ERROR', transient: true });
      await proxy.restore();
      await expect
        .poll(
          () =>
            store.getThread('t').then(
              (r) => r?.version,
              () => -1,
            ),
          { timeout: 10_000 },
        )
        .toBe(1);
    });

    it('an unreachable server fails fast with a StoreError that names the address', async () => {
      const proxy = await startTcpProxy('127.0.0.1', 9);
      await proxy.close();
      const store = backend.open(uniqueName('test'), via(backend.url(), proxy));
      cleanups.push(() => store.close());
      const error = await store.getThread('t').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ transient: true });
      expect((error as Error).message).toMatch(/ECONNREFUSED/);
    }, 20_000);
  });
}
