-- migrate_user.lua: converts one user from the layout before z and h (readmark migrate). Prepended: author_field.lua,
-- members.lua, counters.lua, notify.lua, notices.lua.
-- KEYS[1] rm:{u:U}:counts (old: authorId -> count, total, seen, notices, v)   KEYS[2] rm:{u:U}:marks (old: blogId ->
-- ms read or deleted)   KEYS[3] rm:{u:U}:merged (old: a copy of every entry)   KEYS[4] rm:{u:U}:floors (kept as it is)
-- KEYS[5] rm:{u:U}:z   KEYS[6] rm:{u:U}:h   KEYS[7] rm:{u:U}:notices   KEYS[8] rm:{u:U}:notice-reads
-- KEYS[9..n+8] rm:{u:U}:unread:A (old: blogId -> publishedAt ms) for the authors in ARGV[2..n+1]
-- ARGV[1] most tombstones kept per user  ARGV[2..n+1] every author field of counts, plus the authors of sets found
--                                        without their count
-- Returns {'stale', A} when counts holds an author the caller did not pass (read the fields again and retry), else
-- {'migrated', entries, tombstones} ({'migrated', 0, 0} for a user already converted: idempotent, so a rerun resumes).
-- Each old entry becomes a record and a z entry at its second, each mark a tombstone (an entry or tombstone z already
-- holds wins: a script of this release wrote it, and so does a floor it raised: a read-all, unfollow or all-read
-- processed since the upgrade keeps the old entries it covers out); the counts total, seen and notices are counted again, v moves past
-- both keys' versions, and the old keys go. Caps are applied afterwards by repair.lua. O(the user's old entries).
local max_marks = tonumber(ARGV[1])
local counts, marks, merged, floors, z, h = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local old_keys = {counts, marks, merged}
for i = 9, #KEYS do old_keys[#old_keys + 1] = KEYS[i] end
if redis.call('EXISTS', unpack(old_keys)) == 0 then return {'migrated', 0, 0} end
local passed = {}
for i = 2, #ARGV do passed[ARGV[i]] = true end
local old = redis.call('HGETALL', counts)
for i = 1, #old, 2 do
  if is_author(old[i]) and not passed[old[i]] then return {'stale', old[i]} end
end
-- Whether a floor keeps out an old entry published at ms; limits = HMGET floors A, mA, all, trim. Compared in ms, as
-- the previous layout did: an entry it kept stays, one a floor raised since the upgrade covers does not come back.
local function kept_out(limits, ms)
  local function below(floor) return floor and ms <= tonumber(floor) end
  if below(limits[1]) or below(limits[3]) or below(limits[4]) then return true end
  local membership = limits[2]
  return membership and (string.sub(membership, 1, 1) == 'U' or below(string.sub(membership, 2))) or false
end

local entries, tombstones = 0, 0
for i = 2, #ARGV do
  local author, set = ARGV[i], KEYS[i + 7]
  local rows = redis.call('ZRANGE', set, 0, -1, 'WITHSCORES')
  local limits = redis.call('HMGET', floors, author, 'm' .. author, 'all', 'trim')
  local records = {}
  local blob = redis.call('HGET', h, author)
  if blob then
    for at = 1, #blob / RECORD do records[#records + 1] = record_at(blob, at) end
  end
  for r = 1, #rows, 2 do
    local s = second_of(rows[r + 1])
    local blog_bytes = id_bytes(rows[r])
    if blog_bytes and not kept_out(limits, tonumber(rows[r + 1])) and redis.call('ZADD', z, 'NX', text(-s), rows[r]) == 1 then
      records[#records + 1] = record_of(s, blog_bytes)
      entries = entries + 1
    end
  end
  if #records > 0 then
    table.sort(records, before)
    redis.call('HSET', h, author, table.concat(records))
  end
  redis.call('DEL', set)
end
local marked = redis.call('ZRANGE', marks, 0, -1, 'WITHSCORES')
for r = 1, #marked, 2 do
  tombstones = tombstones + redis.call('ZADD', z, 'NX', text(second_of(marked[r + 1]) + 1), marked[r])
end
local total = redis.call('ZCOUNT', z, '-inf', '0')
local excess = redis.call('ZCARD', z) - total - max_marks
if excess > 0 then redis.call('ZREMRANGEBYRANK', z, total, total + excess - 1) end
local watermark = redis.call('HGET', floors, 'seen')
local seen = 0
if watermark then seen = redis.call('ZCOUNT', z, text(-second_of(watermark)), '0') end
local notices = count_unread_notices(KEYS[7], KEYS[8], floors)
local sets, dels = {}, {}
for field, value in pairs({total = total, seen = seen, notices = notices}) do
  if value > 0 then
    sets[#sets + 1] = field
    sets[#sets + 1] = text(value)
  else
    dels[#dels + 1] = field
  end
end
-- The version only moves forward: past what either key held, so a client's last version is below the next one.
local old_version = tonumber(redis.call('HGET', counts, 'v') or '0')
local version = tonumber(redis.call('HGET', h, 'v') or '0')
if old_version > version then version = old_version end
sets[#sets + 1] = 'v'
sets[#sets + 1] = string.format('%.0f', version + 1)
redis.call('HSET', h, unpack(sets))
if #dels > 0 then redis.call('HDEL', h, unpack(dels)) end
redis.call('DEL', counts, marks, merged)
return {'migrated', entries, tombstones}
