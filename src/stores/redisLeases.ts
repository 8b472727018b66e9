/**
 * {@link Leases} on Redis: a lease is the key `P lease:<key>` holding its owner, with a PX expiry,
 * so every process and host using the same Redis and prefix sees the same leases. Each method is
 * one Lua script, so the owner check and the write cannot interleave with another client.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Leases } from './lease.js';
import type { RedisScript } from './redisScripts.js';

function script(name: string, source: string): RedisScript {
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}

/** ARGV of every lease script: P, key, owner[, ttlMs]. */
export const leaseScripts = {
  acquire: script(
    'leaseAcquire',
    `local k = ARGV[1] .. 'lease:' .. ARGV[2]
local holder = redis.call('GET', k)
if holder and holder ~= ARGV[3] then return 0 end
redis.call('SET', k, ARGV[3], 'PX', ARGV[4])
return 1`,
  ),
  renew: script(
    'leaseRenew',
    `local k = ARGV[1] .. 'lease:' .. ARGV[2]
if redis.call('GET', k) ~= ARGV[3] then return 0 end
redis.call('PEXPIRE', k, ARGV[4])
return 1`,
  ),
  release: script(
    'leaseRelease',
    `local k = ARGV[1] .. 'lease:' .. ARGV[2]
if redis.call('GET', k) == ARGV[3] then redis.call('DEL', k) end
return 1`,
  ),
} satisfies Record<string, RedisScript>;

/** Runs one of the store's scripts with its prefix as ARGV[1]. */
export type RunScript = (
  script: RedisScript,
  operation: string,
  args: string[],
) => Promise<unknown>;

/** Leases over a Redis store's script runner. */
export class RedisLeases implements Leases {
  readonly #run: RunScript;

  constructor(run: RunScript) {
    this.#run = run;
  }

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const args = [key, owner, String(Math.ceil(ttlMs))];
    return Number(await this.#run(leaseScripts.acquire, 'acquire lease', args)) === 1;
  }

  async renew(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const args = [key, owner, String(Math.ceil(ttlMs))];
    return Number(await this.#run(leaseScripts.renew, 'renew lease', args)) === 1;
  }

  async release(key: string, owner: string): Promise<void> {
    await this.#run(leaseScripts.release, 'release lease', [key, owner]);
  }
}
