/**
 * The Lua scripts behind {@link RedisTraceStore}; each runs atomically on the server. Key layout
 * under the store's prefix `P` (ARGV[1] of every script):
 * - `P trace:<traceId>`: hash `chat`, `run` ('' = none), `summary` and `body` (JSON);
 * - `P traces`, `P traces:c:<chatId>`, `P traces:r:<runId>`: sorted sets of trace ids scored by
 *   start time (epoch ms), so the newest come first and equal times order by id, descending.
 * A trace hash may expire (a TTL); the ids it leaves in the sorted sets are dropped when a list
 * or a save meets them.
 * @module
 */
import { createHash } from 'node:crypto';
import type { RedisScript } from './redisScripts.js';

const prelude = `
local P = ARGV[1]
local function hkey(id) return P .. 'trace:' .. id end
local function ckey(chat) return P .. 'traces:c:' .. chat end
local function rkey(run) return P .. 'traces:r:' .. run end
local function unindex(id)
  local f = redis.call('HMGET', hkey(id), 'chat', 'run')
  redis.call('ZREM', P .. 'traces', id)
  if f[1] and f[1] ~= '' then redis.call('ZREM', ckey(f[1]), id) end
  if f[2] and f[2] ~= '' then redis.call('ZREM', rkey(f[2]), id) end
  return redis.call('DEL', hkey(id))
end
`;

function script(name: string, body: string): RedisScript {
  const source = prelude + body;
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}

/** The trace scripts, by operation. */
export const traceScripts = {
  /**
   * ARGV: P, traceId, score, chat, run, summary, body, ttlSeconds (0 = none), max (0 = none).
   * Replaces a trace with the same id, then drops the oldest past `max` and up to 100 expired ids.
   */
  save: script(
    'traceSave',
    `local id, score, chat, run = ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local ttl, max = tonumber(ARGV[8]), tonumber(ARGV[9])
unindex(id)
redis.call('HSET', hkey(id), 'chat', chat, 'run', run, 'summary', ARGV[6], 'body', ARGV[7])
redis.call('ZADD', P .. 'traces', score, id)
if chat ~= '' then redis.call('ZADD', ckey(chat), score, id) end
if run ~= '' then redis.call('ZADD', rkey(run), score, id) end
if ttl > 0 then
  redis.call('EXPIRE', hkey(id), ttl)
  if chat ~= '' then redis.call('EXPIRE', ckey(chat), ttl) end
  if run ~= '' then redis.call('EXPIRE', rkey(run), ttl) end
  for _, old in ipairs(redis.call('ZRANGE', P .. 'traces', 0, 99)) do
    if redis.call('EXISTS', hkey(old)) == 1 then break end
    redis.call('ZREM', P .. 'traces', old)
  end
end
if max > 0 then
  local extra = redis.call('ZCARD', P .. 'traces') - max
  if extra > 0 then
    for _, old in ipairs(redis.call('ZRANGE', P .. 'traces', 0, extra - 1)) do unindex(old) end
  end
end
return 1`,
  ),

  /** ARGV: P, chat ('' = any), run ('' = any), limit → summaries, newest first. */
  list: script(
    'traceList',
    `local chat, run, limit = ARGV[2], ARGV[3], tonumber(ARGV[4])
local key = P .. 'traces'
if chat ~= '' then key = ckey(chat) elseif run ~= '' then key = rkey(run) end
local out, stale, start = {}, {}, 0
while #out < limit do
  local ids = redis.call('ZREVRANGE', key, start, start + limit - 1)
  if #ids == 0 then break end
  for _, id in ipairs(ids) do
    local f = redis.call('HMGET', hkey(id), 'run', 'summary')
    if not f[2] then table.insert(stale, id)
    elseif (run == '' or f[1] == run) and #out < limit then table.insert(out, f[2]) end
  end
  start = start + limit
end
for _, id in ipairs(stale) do redis.call('ZREM', key, id) end
return out`,
  ),

  /** ARGV: P, traceId → the trace's JSON, or nil. */
  get: script('traceGet', `return redis.call('HGET', hkey(ARGV[2]), 'body')`),

  /** ARGV: P, chat → how many traces of the chat were deleted. */
  deleteByChat: script(
    'traceDeleteByChat',
    `local n = 0
for _, id in ipairs(redis.call('ZRANGE', ckey(ARGV[2]), 0, -1)) do n = n + unindex(id) end
redis.call('DEL', ckey(ARGV[2]))
return n`,
  ),
};
