-- repair.lua: makes one user's counts and merged index agree with their unread sets again (reconcile --repair).
-- KEYS[1] rm:{u:U}:counts   KEYS[2] rm:{u:U}:floors   KEYS[3] rm:{u:U}:merged
-- KEYS[4..n+3] rm:{u:U}:unread:A for the authors in ARGV[2..n+1]
-- KEYS[n+4] rm:{u:U}:live  KEYS[n+5] rm:{u:U}:changes (notify.lua: 'repaired' when anything changed)
-- ARGV[1] most unread kept per (U, A)
-- ARGV[2..n+1] every author field of counts, plus the authors of sets found without their count or named by the
--              merged index
-- Returns {'stale', A} when counts holds an author the caller did not pass (read the fields again and retry),
-- {'wrong-type', key} when a key is not the type the data model says (left alone: repairing it would lose data),
-- else {'repaired', fields written, fields deleted, entries trimmed}.
-- Never adds or removes an unread entry, except that a set over the cap keeps its newest `cap` entries the way
-- deliver.lua trims, raising the author's floor so the trimmed blogs do not come back on a replay. Then
-- counts[A] = ZCARD(unread:A) for every author, fields without entries and junk fields are deleted, and total is the
-- sum (deleted when zero), and seen counts the entries at or before the seen watermark (deleted when zero): invariants
-- 1 and 2 and that of seen hold afterwards (notices is check_notices.lua's), whatever the counts held before. The merged index is
-- dropped, for the caller to build again from the sets (this is also how a deployment from before the index gets it).
local cap = tonumber(ARGV[1])
local counts_type = type_of(KEYS[1])
if counts_type ~= 'hash' and counts_type ~= 'none' then return {'wrong-type', 'counts'} end
if type_of(KEYS[2]) ~= 'hash' and type_of(KEYS[2]) ~= 'none' then return {'wrong-type', 'floors'} end
if type_of(KEYS[3]) ~= 'zset' and type_of(KEYS[3]) ~= 'none' then return {'wrong-type', 'merged'} end
local passed = {}
for i = 2, #ARGV do
  local key_type = type_of(KEYS[i + 2])
  if key_type ~= 'zset' and key_type ~= 'none' then return {'wrong-type', 'unread:' .. ARGV[i]} end
  passed[ARGV[i]] = true
end

local fields = redis.call('HKEYS', KEYS[1])
for _, field in ipairs(fields) do
  if field ~= 'total' and is_author(field) and not passed[field] then return {'stale', field} end
end

local written, deleted, trimmed = 0, 0, 0
for _, field in ipairs(fields) do
  if field ~= 'total' and field ~= 'seen' and field ~= 'notices' and field ~= 'v' and not is_author(field) then
    redis.call('HDEL', KEYS[1], field)
    deleted = deleted + 1
  end
end

local watermark = redis.call('HGET', KEYS[2], 'seen')
local sum, seen = 0, 0
for i = 2, #ARGV do
  local author, key = ARGV[i], KEYS[i + 2]
  local size = redis.call('ZCARD', key)
  local excess = size - cap
  if excess > 0 then
    local dropped = redis.call('ZRANGE', key, 0, excess - 1, 'WITHSCORES')
    redis.call('ZREMRANGEBYRANK', key, 0, excess - 1)
    local highest = dropped[#dropped]
    local floor = redis.call('HGET', KEYS[2], author)
    if not floor or tonumber(highest) > tonumber(floor) then redis.call('HSET', KEYS[2], author, highest) end
    trimmed = trimmed + excess
    size = cap
  end
  local current = redis.call('HGET', KEYS[1], author)
  if size > 0 then
    if current ~= tostring(size) then
      redis.call('HSET', KEYS[1], author, size)
      written = written + 1
    end
    sum = sum + size
    if watermark then seen = seen + redis.call('ZCOUNT', key, '-inf', watermark) end
  elseif current then
    redis.call('HDEL', KEYS[1], author)
    deleted = deleted + 1
  end
end

-- total and seen: written when they differ, deleted when zero.
for field, value in pairs({total = sum, seen = seen}) do
  local current = redis.call('HGET', KEYS[1], field)
  if value > 0 then
    if current ~= tostring(value) then
      redis.call('HSET', KEYS[1], field, value)
      written = written + 1
    end
  elseif current then
    redis.call('HDEL', KEYS[1], field)
    deleted = deleted + 1
  end
end

-- The merged index is dropped here and built again by the caller from the sets, slice by slice (rebuild_merged.lua):
-- one script copying a heavy user's million entries would hold Redis for seconds. UNLINK frees it in the background.
redis.call('UNLINK', KEYS[3])
if written + deleted + trimmed > 0 then notify(KEYS[1], KEYS[#KEYS - 1], KEYS[#KEYS], 'repaired') end
return {'repaired', tostring(written), tostring(deleted), tostring(trimmed)}
