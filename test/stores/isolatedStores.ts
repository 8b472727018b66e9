/**
 * Isolated Redis and Postgres stores for the integration tests: every `create()` gets its own key
 * prefix or schema (a "namespace") on the test servers, and `destroy()` closes the store and drops
 * what it wrote. `create`/`destroy`/`skip`/`name` plug straight into `runStoreConformance`.
 * @module
 */
import pg from 'pg';
import { createClient } from 'redis';
import { PostgresStore } from '../../src/stores/postgres.js';
import { RedisStore } from '../../src/stores/redis.js';
import type { ThreadStore } from '../../src/stores/types.js';
import {
  postgresSkip,
  postgresUrl,
  redisSkip,
  redisUrl,
  uniqueName,
} from '../setup/serviceUrls.js';

/** One backend on a test server, with namespaces so that tests never see each other's data. */
export interface IsolatedBackend {
  name: string;
  skip: string | undefined;
  /** The server's URL (only read when the backend is not skipped). */
  url: () => string;
  /** A new store on `url` (default: the test server) in `namespace`. */
  open: (namespace: string, url?: string) => ThreadStore;
  /** Deletes everything stored in `namespace`. */
  drop: (namespace: string) => Promise<void>;
  create: () => Promise<ThreadStore>;
  destroy: (store: ThreadStore) => Promise<void>;
}

function isolated(base: Omit<IsolatedBackend, 'create' | 'destroy'>): IsolatedBackend {
  const namespaces = new WeakMap<ThreadStore, string>();
  return {
    ...base,
    create: async () => {
      const namespace = uniqueName('test');
      const store = base.open(namespace);
      namespaces.set(store, namespace);
      return store;
    },
    destroy: async (store) => {
      await store.close();
      await base.drop(namespaces.get(store)!);
    },
  };
}

/** A Redis store per test under the key prefix `<namespace>:`, its keys deleted afterwards. */
export function redisBackend(): IsolatedBackend {
  return isolated({
    name: 'RedisStore',
    skip: redisSkip(),
    url: () => redisUrl()!,
    open: (namespace, url = redisUrl()) => new RedisStore({ url, keyPrefix: `${namespace}:` }),
    drop: async (namespace) => {
      const client = createClient({ url: redisUrl() });
      await client.connect();
      try {
        for await (const keys of client.scanIterator({ MATCH: `${namespace}:*`, COUNT: 500 })) {
          if (keys.length > 0) await client.del(keys);
        }
      } finally {
        await client.close();
      }
    },
  });
}

/** A Postgres store per test in the schema `<namespace>`, dropped afterwards. */
export function postgresBackend(): IsolatedBackend {
  return isolated({
    name: 'PostgresStore',
    skip: postgresSkip(),
    url: () => postgresUrl()!,
    open: (namespace, url = postgresUrl()) =>
      new PostgresStore({ connectionString: url, schema: namespace }),
    drop: async (namespace) => {
      const client = new pg.Client({ connectionString: postgresUrl() });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${namespace}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  });
}
