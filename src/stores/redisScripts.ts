/**
 * The Lua scripts behind {@link RedisStore}. Every store operation is one script, so each runs
 * atomically on the server: a version check and its RPUSH cannot interleave with another writer.
 *
 * Key layout under the store's prefix `P` (ARGV[1] of every script):
 * - `P t:<threadId>`: hash `id, version, meta, fork, created, updated, seg` and `chat` (absent = null).
 * - `P s:<segmentId>`: hash `parent` ('' = none), `base`, `children`, `owned` (1 while it is some
 *   thread's head). A segment holds the items at positions `base…`; positions below `base` are read
 *   from `parent`, so a fork or a rollback makes a new segment instead of copying items.
 * - `P i:<segmentId>`: list of serialized items, the item at position `p` at index `p - base`.
 * - `P threads` and `P c:<chatId>`: sorted sets (score 0, so ordered by id) of thread ids.
 * - `P cp:<checkpointId>`: checkpoint JSON; `P cps:<chatId>`: list of checkpoint ids in put order.
 *
 * Scripts compute keys from the prefix, so the store needs a standalone Redis (not Cluster). A
 * write made under lease fences (`fence.ts`) passes them as KEYS (lease key, owner, ...): the
 * prelude refuses the write with a `COLLOQUY_FENCED <n>` error reply when one is not held.
 * @module
 */
import { createHash } from 'node:crypto';

/** A Lua script and its SHA-1, for EVALSHA with an EVAL fallback. */
export interface RedisScript {
  name: string;
  source: string;
  sha: string;
}

const prelude = `
local P = ARGV[1]
local function tkey(id) return P .. 't:' .. id end
local function skey(id) return P .. 's:' .. id end
local function ikey(id) return P .. 'i:' .. id end
local function forkJson(id, version) return '{"threadId":' .. cjson.encode(id) .. ',"version":' .. version .. '}' end
local function newSegment(seg, parent, base)
  redis.call('HSET', skey(seg), 'parent', parent, 'base', base, 'children', 0, 'owned', 1)
  if parent ~= '' then redis.call('HINCRBY', skey(parent), 'children', 1) end
end
local function putThread(id, chat, meta, fork, now, seg, version)
  redis.call('HSET', tkey(id), 'id', id, 'version', version, 'meta', meta, 'fork', fork,
    'created', now, 'updated', now, 'seg', seg)
  if chat then redis.call('HSET', tkey(id), 'chat', chat) end
  redis.call('ZADD', P .. 'threads', 0, id)
  if chat then redis.call('ZADD', P .. 'c:' .. chat, 0, id) end
end
-- Lease fences (KEYS: lease key, owner, ...): a write lands only while each lease is its owner's.
for i = 1, #KEYS, 2 do
  if redis.call('GET', P .. 'lease:' .. KEYS[i]) ~= KEYS[i + 1] then
    return redis.error_reply('COLLOQUY_FENCED ' .. tostring((i + 1) / 2))
  end
end
`;

function script(name: string, body: string): RedisScript {
  const source = prelude + body;
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}

/** The store's scripts, by operation. Argument lists are documented on each. */
export const scripts = {
  /** ARGV: P, threadId → HGETALL of the thread (empty when missing). */
  get: script('get', `return redis.call('HGETALL', tkey(ARGV[2]))`),

  /** ARGV: P, chatId or '' (all) , hasChat → array of HGETALL replies, ordered by id. */
  list: script(
    'list',
    `local key = ARGV[3] == '1' and (P .. 'c:' .. ARGV[2]) or (P .. 'threads')
local out = {}
for _, id in ipairs(redis.call('ZRANGE', key, 0, -1)) do table.insert(out, redis.call('HGETALL', tkey(id))) end
return out`,
  ),

  /**
   * ARGV: P, threadId, from, limit (-1 = none), newest (-1 = unset) → the visible items in
   * `[lo, hi)`, walking segments from the head down only as far as `lo`.
   */
  read: script(
    'read',
    `local f = redis.call('HMGET', tkey(ARGV[2]), 'version', 'seg')
if not f[1] then return {} end
local version = tonumber(f[1])
local from, limit, newest = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local lo, hi = math.min(from, version), version
if newest >= 0 then lo = math.max(0, version - newest)
elseif limit >= 0 then hi = math.min(version, lo + limit) end
local chunks, seg, upper = {}, f[2], hi
while seg and seg ~= '' and upper > lo do
  local s = redis.call('HMGET', skey(seg), 'parent', 'base')
  local base = tonumber(s[2])
  local a = math.max(lo, base)
  if a < upper then table.insert(chunks, redis.call('LRANGE', ikey(seg), a - base, upper - base - 1)) end
  upper = math.min(upper, base)
  seg = s[1]
end
local out = {}
for c = #chunks, 1, -1 do for _, v in ipairs(chunks[c]) do out[#out + 1] = v end end
return out`,
  ),

  /**
   * ARGV: P, threadId, expectedVersion, now, hasChat, chatId, newSegmentId, item… →
   * '{"version":n}' or '{"conflict":actual}'. Creates the thread at expectedVersion 0.
   */
  append: script(
    'append',
    `local t = tkey(ARGV[2])
local v = redis.call('HGET', t, 'version')
local current = v and tonumber(v) or 0
if current ~= tonumber(ARGV[3]) then return cjson.encode({conflict = current}) end
if not v then
  newSegment(ARGV[7], '', 0)
  putThread(ARGV[2], ARGV[5] == '1' and ARGV[6] or nil, '{}', 'null', ARGV[4], ARGV[7], 0)
end
local n = #ARGV - 7
if n > 0 then
  local k = ikey(redis.call('HGET', t, 'seg'))
  for i = 8, #ARGV, 1000 do redis.call('RPUSH', k, unpack(ARGV, i, math.min(i + 999, #ARGV))) end
end
redis.call('HSET', t, 'version', current + n, 'updated', ARGV[4])
return cjson.encode({version = current + n})`,
  ),

  /** ARGV: P, threadId, metadataJson, now, hasChat, chatId, newSegmentId. */
  setMetadata: script(
    'setMetadata',
    `local t = tkey(ARGV[2])
if redis.call('EXISTS', t) == 1 then
  redis.call('HSET', t, 'meta', ARGV[3], 'updated', ARGV[4])
else
  newSegment(ARGV[7], '', 0)
  putThread(ARGV[2], ARGV[5] == '1' and ARGV[6] or nil, ARGV[3], 'null', ARGV[4], ARGV[7], 0)
end
return 1`,
  ),

  /**
   * ARGV: P, sourceId, targetId, upTo ('' = all), now, chatMode (keep|null|set), chatId,
   * metadataJson ('' = copy), newSegmentId → '{"record":[…]}', '{"missing":true}' or
   * '{"invalid":true,"version":v,"exists":0|1}'.
   */
  fork: script(
    'fork',
    `local f = redis.call('HMGET', tkey(ARGV[2]), 'version', 'seg', 'chat', 'meta')
if not f[1] then return cjson.encode({missing = true}) end
local version = tonumber(f[1])
local upTo = ARGV[4] == '' and version or tonumber(ARGV[4])
local exists = redis.call('EXISTS', tkey(ARGV[3]))
if exists == 1 or not upTo or upTo < 0 or upTo > version or upTo % 1 ~= 0 then
  return cjson.encode({invalid = true, version = version, exists = exists})
end
local chat = f[3]
if ARGV[6] == 'null' then chat = nil elseif ARGV[6] == 'set' then chat = ARGV[7] end
if not chat then chat = nil end
newSegment(ARGV[9], upTo > 0 and f[2] or '', upTo)
putThread(ARGV[3], chat, ARGV[8] ~= '' and ARGV[8] or f[4], forkJson(ARGV[2], upTo), ARGV[5], ARGV[9], upTo)
return cjson.encode({record = redis.call('HGETALL', tkey(ARGV[3]))})`,
  ),

  /**
   * ARGV: P, threadId, version, archiveId, now, newSegmentId → '{"archive":id}', '{"noop":true}',
   * '{"missing":true}' or '{"invalid":true,"version":v}'. The archive takes over the thread's
   * head segment (the whole history); the thread gets a new segment on top of its first items.
   */
  rollback: script(
    'rollback',
    `local t = tkey(ARGV[2])
local f = redis.call('HMGET', t, 'version', 'seg', 'chat', 'meta')
if not f[1] then return cjson.encode({missing = true}) end
local version, target = tonumber(f[1]), tonumber(ARGV[3])
if not target or target < 0 or target > version or target % 1 ~= 0 then
  return cjson.encode({invalid = true, version = version})
end
if target == version then return cjson.encode({noop = true}) end
local chat = f[3]
if not chat then chat = nil end
putThread(ARGV[4], chat, f[4], forkJson(ARGV[2], version), ARGV[5], f[2], version)
newSegment(ARGV[6], target > 0 and f[2] or '', target)
redis.call('HSET', t, 'seg', ARGV[6], 'version', target, 'updated', ARGV[5])
return cjson.encode({archive = ARGV[4]})`,
  ),

  /**
   * ARGV: P, threadId. Deletes the thread, then frees its segments from the head down while no
   * fork and no other thread still reads them.
   */
  delete: script(
    'delete',
    `local t = tkey(ARGV[2])
local f = redis.call('HMGET', t, 'seg', 'chat')
if not f[1] then return 0 end
redis.call('DEL', t)
redis.call('ZREM', P .. 'threads', ARGV[2])
if f[2] then redis.call('ZREM', P .. 'c:' .. f[2], ARGV[2]) end
local seg = f[1]
redis.call('HSET', skey(seg), 'owned', 0)
while seg and seg ~= '' do
  local s = redis.call('HMGET', skey(seg), 'parent', 'children', 'owned')
  if tonumber(s[2]) > 0 or s[3] == '1' then break end
  redis.call('DEL', skey(seg), ikey(seg))
  if s[1] ~= '' then redis.call('HINCRBY', skey(s[1]), 'children', -1) end
  seg = s[1]
end
return 1`,
  ),

  /** ARGV: P, checkpointId, chatId, json → 1 when stored, 0 when the id is taken. */
  putCheckpoint: script(
    'putCheckpoint',
    `if not redis.call('SET', P .. 'cp:' .. ARGV[2], ARGV[4], 'NX') then return 0 end
redis.call('RPUSH', P .. 'cps:' .. ARGV[3], ARGV[2])
return 1`,
  ),

  /** ARGV: P, chatId → checkpoint JSON strings in put order. */
  listCheckpoints: script(
    'listCheckpoints',
    `local out = {}
for _, id in ipairs(redis.call('LRANGE', P .. 'cps:' .. ARGV[2], 0, -1)) do
  local json = redis.call('GET', P .. 'cp:' .. id)
  if json then out[#out + 1] = json end
end
return out`,
  ),

  /** ARGV: P, checkpointId → checkpoint JSON or nil. */
  getCheckpoint: script('getCheckpoint', `return redis.call('GET', P .. 'cp:' .. ARGV[2])`),
} satisfies Record<string, RedisScript>;
