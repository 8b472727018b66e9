/**
 * The Lua scripts of {@link RedisMemory}: the writes that must be atomic (entries with their
 * marks and the embedder check, replacing every vector, forgetting a user). Every script takes the
 * key prefix as `ARGV[1]`.
 *
 * Keys (under the prefix): `meta` (hash: model, dimensions), `rec` (hash: `threadId\0itemId` →
 * `seq|json`), `seq`, `users` (set), `u:<user>` (set of `rec` fields), `marks` (hash),
 * `w:<agency>\0<user>` (list of versions), `wa:<user>` (set of agencies), `s:<thread>` (hash:
 * position → json), `su:<user>` (set of threads with summaries of the user).
 * @module
 */

const ADD_BODY = `
local function add(p, entries)
  for _, e in ipairs(entries) do
    if redis.call('HEXISTS', p .. 'rec', e[1]) == 0 then
      local seq = redis.call('INCR', p .. 'seq')
      redis.call('HSET', p .. 'rec', e[1], seq .. '|' .. e[3])
      redis.call('SADD', p .. 'u:' .. e[2], e[1])
      redis.call('SADD', p .. 'users', e[2])
    end
  end
end
local function setMeta(p, model, dimensions)
  redis.call('HSET', p .. 'meta', 'model', model, 'dimensions', dimensions)
end
`;

/**
 * ARGV: prefix, model, dimensions, entries (`[[field, user, json], …]`), marks (`{thread: n}`).
 * Returns `ok`, or the stored `model\0dimensions` when they differ (nothing written).
 */
export const ADD_ENTRIES = `${ADD_BODY}
local p = ARGV[1]
local entries = cjson.decode(ARGV[4])
if #entries > 0 then
  local model = redis.call('HGET', p .. 'meta', 'model')
  local dimensions = redis.call('HGET', p .. 'meta', 'dimensions')
  if model and (model ~= ARGV[2] or dimensions ~= ARGV[3]) then
    return model .. '\\0' .. dimensions
  end
  if not model then setMeta(p, ARGV[2], ARGV[3]) end
  add(p, entries)
end
for thread, version in pairs(cjson.decode(ARGV[5])) do
  redis.call('HSET', p .. 'marks', thread, version)
end
return 'ok'
`;

/** ARGV: prefix, model, dimensions, entries. Deletes every record, then adds `entries`. */
export const REPLACE_VECTORS = `${ADD_BODY}
local p = ARGV[1]
for _, user in ipairs(redis.call('SMEMBERS', p .. 'users')) do
  redis.call('DEL', p .. 'u:' .. user)
end
redis.call('DEL', p .. 'rec', p .. 'users', p .. 'meta')
local entries = cjson.decode(ARGV[4])
if #entries > 0 then
  setMeta(p, ARGV[2], ARGV[3])
  add(p, entries)
end
return 'ok'
`;

/**
 * ARGV: prefix, user, agency (empty: all). Returns `[vectors, workingVersions, summaries]`.
 */
export const FORGET = `
local p, user, agency = ARGV[1], ARGV[2], ARGV[3]
local function matches(json)
  return agency == '' or cjson.decode(json).agency == agency
end
local vectors = 0
for _, field in ipairs(redis.call('SMEMBERS', p .. 'u:' .. user)) do
  local value = redis.call('HGET', p .. 'rec', field)
  if not value or matches(string.sub(value, string.find(value, '|', 1, true) + 1)) then
    if value then vectors = vectors + 1 end
    redis.call('HDEL', p .. 'rec', field)
    redis.call('SREM', p .. 'u:' .. user, field)
  end
end
if redis.call('SCARD', p .. 'u:' .. user) == 0 then redis.call('SREM', p .. 'users', user) end
local working = 0
for _, name in ipairs(redis.call('SMEMBERS', p .. 'wa:' .. user)) do
  if agency == '' or name == agency then
    working = working + redis.call('LLEN', p .. 'w:' .. name .. '\\0' .. user)
    redis.call('DEL', p .. 'w:' .. name .. '\\0' .. user)
    redis.call('SREM', p .. 'wa:' .. user, name)
  end
end
local summaries = 0
for _, thread in ipairs(redis.call('SMEMBERS', p .. 'su:' .. user)) do
  local all = redis.call('HGETALL', p .. 's:' .. thread)
  for i = 1, #all, 2 do
    local s = cjson.decode(all[i + 1])
    if s.userId == user and (agency == '' or s.agency == agency) then
      redis.call('HDEL', p .. 's:' .. thread, all[i])
      summaries = summaries + 1
    end
  end
end
return { vectors, working, summaries }
`;
