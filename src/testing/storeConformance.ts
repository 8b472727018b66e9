/**
 * The conformance suite every {@link ThreadStore} backend must pass, published as
 * `colloquy/testing` so that you can run it against your own store. It registers vitest suites
 * (vitest is an optional peer dependency of `colloquy/testing`). A backend's spec file calls
 * {@link runStoreConformance} once:
 *
 * @example
 * ```ts
 * // test/myStore.test.ts
 * import { runStoreConformance } from 'colloquy/testing';
 * import { MyStore } from '../src/myStore.js';
 *
 * runStoreConformance({ name: 'MyStore', create: async () => new MyStore() });
 * ```
 * @module
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { ThreadStore } from '../stores/types.js';
import { appendTests } from './conformance/append.js';
import { appendManyTests } from './conformance/appendMany.js';
import { capabilityTests } from './conformance/capabilities.js';
import { checkpointTests } from './conformance/checkpoints.js';
import { forkTests } from './conformance/fork.js';
import { idTests } from './conformance/ids.js';
import { leaseTests } from './conformance/leases.js';
import { readTests } from './conformance/read.js';
import { sessionTests } from './conformance/session.js';

/** How to run the conformance suite against one backend. */
export interface StoreConformanceOptions {
  /** Shown as the outer `describe`, e.g. `SqliteStore`. */
  name: string;
  /** Makes a fresh, empty store; called before every test. */
  create: () => Promise<ThreadStore>;
  /**
   * Tears down a store made by `create`, after every test. It must close the store (and may then
   * drop its data, e.g. remove a temp dir or flush a key prefix). Default: `store.close()`.
   */
  destroy?: (store: ThreadStore) => Promise<void>;
  /** When set, the whole suite is skipped and this reason appears in the suite's name. */
  skip?: string;
}

/**
 * Registers the conformance suite (one `describe` per method group: append, read, fork,
 * checkpoints, session, ids, leases, capabilities) for a backend, in the calling vitest test file.
 *
 * @example
 * ```ts
 * runStoreConformance({
 *   name: 'MyStore',
 *   create: async () => new MyStore({ url: process.env.MY_URL }),
 *   destroy: async (store) => { await store.close(); },
 *   skip: process.env.MY_URL ? undefined : 'MY_URL is not set',
 * });
 * ```
 */
export function runStoreConformance(opts: StoreConformanceOptions): void {
  const title = opts.skip
    ? `${opts.name} conformance (skipped: ${opts.skip})`
    : `${opts.name} conformance`;
  describe.skipIf(Boolean(opts.skip))(title, () => {
    let current: ThreadStore | undefined;
    beforeEach(async () => {
      current = await opts.create();
    });
    afterEach(async () => {
      const store = current;
      current = undefined;
      if (!store) return;
      await (opts.destroy ? opts.destroy(store) : store.close());
    });
    const store = (): ThreadStore => {
      if (!current)
        throw new Error(`${opts.name}: create() did not produce a store before the test ran.`);
      return current;
    };
    appendTests(store);
    appendManyTests(store);
    readTests(store);
    forkTests(store);
    checkpointTests(store);
    sessionTests(store);
    idTests(store);
    leaseTests(store);
    capabilityTests(store);
  });
}
