-- migrate_user.lua: converts one user from the layout before z and h (readmark migrate). Prepended: author_field.lua,
-- members.lua, counters.lua, notify.lua, notices.lua.
-- KEYS[1] rm:{u:U}:counts (old: authorId -> count, total, seen, notices, v)   KEYS[2] rm:{u:U}:marks (old: blogId ->
-- ms read or deleted)   KEYS[3] rm:{u:U}:merged (old: a copy of every entry)   KEYS[4] rm:{u:U}:floors (kept as it is)
-- KEYS[5] rm:{u:U}:z   KEYS[6] rm:{u:U}:h   KEYS[7] rm:{u:U}:notices   KEYS[8] rm:{u:U}:notice-reads
-- KEYS[9..n+8] rm:{u:U}:unread:A (old: blogId -> publishedAt ms) for the authors in ARGV[2..n+1]
-- ARGV[1] most tombstones kept per user  ARGV[2..n+1] every author field of counts, plus the authors of sets found
--                                        without their count
-- Returns {'stale', A} when counts holds an author the caller did not pass (read the fields again and retry), else
-- {'migrated', entries, tombstones, 1}, or {'migrated', 0, 0, 0} for a user with no old keys: idempotent, so a
-- rerun resumes. Each mark becomes a tombstone first, over an unread entry of the blog too (a read is final); then
-- each old entry a record and a z entry at its second, unless z holds the blog already (a script of this release
-- wrote it) or a floor covers it in whole seconds, as a delivery is judged (a read-all, unfollow or all-read
-- processed since the upgrade). Total, seen and notices are counted again, v moves past both keys' versions, and the
-- old keys go. repair.lua then applies the caps and drops records z no longer holds as unread. O(the user's old
-- entries).
local max_marks = tonumber(ARGV[1])
local counts, marks, merged, floors, z, h = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local old_keys = {counts, marks, merged}
for i = 9, #KEYS do old_keys[#old_keys + 1] = KEYS[i] end
local found = 0
-- In batches: unpack is bounded by Lua's stack, and a user may have followed thousands of authors.
for i = 1, #old_keys, 1000 do found = found + redis.call('EXISTS', unpack(old_keys, i, math.min(#old_keys, i + 999))) end
if found == 0 then return {'migrated', 0, 0, 0} end
local passed = {}
for i = 2, #ARGV do passed[ARGV[i]] = true end
local old = redis.call('HGETALL', counts)
for i = 1, #old, 2 do
  if is_author(old[i]) and not passed[old[i]] then return {'stale', old[i]} end
end
-- Whether a floor keeps out an author's entry of second s; limits = HMGET floors A, mA, all, trim (deliver.lua).
local function kept_out(limits, s)
  if covered(s, limits[1]) or covered(s, limits[3]) or covered(s, limits[4]) then return true end
  local membership = limits[2]
  return membership and (string.sub(membership, 1, 1) == 'U' or covered(s, string.sub(membership, 2))) or false
end

local entries, tombstones = 0, 0
local marked = redis.call('ZRANGE', marks, 0, -1, 'WITHSCORES')
for r = 1, #marked, 2 do
  local score = redis.call('ZSCORE', z, marked[r])
  if not score or tonumber(score) <= 0 then
    redis.call('ZADD', z, text(second_of(marked[r + 1]) + 1), marked[r])
    tombstones = tombstones + 1
  end
end
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
    if blog_bytes and not kept_out(limits, s) and redis.call('ZADD', z, 'NX', text(-s), rows[r]) == 1 then
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
return {'migrated', entries, tombstones, 1}
