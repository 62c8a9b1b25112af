-- check.lua (read-only): one user's counts against their unread sets (reconcile).
-- KEYS[1] rm:{u:U}:counts   KEYS[2] rm:{u:U}:merged   KEYS[3] rm:{u:U}:floors
-- KEYS[4..n+3] rm:{u:U}:unread:A for the authors A in ARGV[3..n+2]
-- ARGV[1] most unread kept per (U, A)
-- ARGV[2] 'user': the authors are every author field of counts (plus sets found without their count); every invariant
--         is checked, and {'stale', A} is returned when counts holds an author the caller did not pass (a writer
--         added it since the caller read the fields: read them again).
--         'sets': only whether each passed set has its count (the scan over unread keys).
-- Returns a flat list of findings, each four strings: kind, field, found, expected
--   bad-field A|total|seen v   (field notices is check_notices.lua's; v, the version, is not checked)   a field that is zero, negative or not an integer, or a field that is no author id
--   wrong-count A c z     counts[A] == c but ZCARD(unread:A) == z
--   missing-count A z 0   unread:A holds z entries, counts has no field A
--   orphan-set A z 0      unread:A holds z entries, the user has no counts at all
--   wrong-total total t s total (missing = 0) is t, the author fields sum to s
--   wrong-seen seen c s   seen (missing = 0) is c, the passed sets hold s entries at or before the seen watermark
--   over-cap A z cap      unread:A holds more than the cap
--   wrong-type key type   a key of the user is not the Redis type the data model says
--   wrong-merged merged m s   the merged index holds m entries, the passed unread sets s ('user' mode only; the caller
--                         then looks for authors the index names beyond those passed, merged_authors.lua)
-- Atomic like every script: a writer's script runs wholly before or after it, so a live processor causes no false drift.
local cap, mode = tonumber(ARGV[1]), ARGV[2]
local found = {}
local function report(kind, field, value, expected)
  found[#found + 1] = kind
  found[#found + 1] = field
  found[#found + 1] = tostring(value)
  found[#found + 1] = tostring(expected)
end
-- A command on a key of another type answers an error table; only then is the type asked (TYPE per key costs).
local function failed(reply)
  return type(reply) == 'table' and reply['err'] ~= nil
end

-- The counts: every field in 'user' mode, only whether each passed author has one in 'sets' mode.
local fields, value_of, has_counts = {}, {}, false
if mode == 'user' then
  fields = redis.pcall('HGETALL', KEYS[1])
  if failed(fields) then
    report('wrong-type', 'counts', type_of(KEYS[1]), 'hash')
    return found
  end
  for i = 1, #fields, 2 do value_of[fields[i]] = fields[i + 1] end
  has_counts = #fields > 0
else
  has_counts = redis.call('EXISTS', KEYS[1]) == 1
end

local size_of = {}
for i = 3, #ARGV do
  local size = redis.pcall('ZCARD', KEYS[i + 1])
  if failed(size) then
    report('wrong-type', 'unread:' .. ARGV[i], type_of(KEYS[i + 1]), 'zset')
    return found
  end
  size_of[ARGV[i]] = size
end

if mode == 'user' then
  local sum, total, seen = 0, nil, nil
  for i = 1, #fields, 2 do
    local field, value = fields[i], fields[i + 1]
    if field == 'total' then
      total = value
    elseif field == 'seen' then
      seen = value
    elseif field == 'notices' then
      -- targeted notices: checked against the inbox by check_notices.lua
    elseif field == 'v' then
      -- the state version (notify.lua): it only counts changes, nothing to check it against
    elseif not is_author(field) then
      report('bad-field', field, value, 'no such field')
    elseif size_of[field] == nil then
      return {'stale', field}
    else
      local n = integer(value)
      if n == nil or n <= 0 then
        report('bad-field', field, value, 'a positive integer')
      elseif size_of[field] ~= n then
        report('wrong-count', field, n, size_of[field])
      end
      if n ~= nil then sum = sum + n end
    end
  end
  local t = 0
  if total ~= nil then
    t = integer(total)
    if t == nil or t <= 0 then report('bad-field', 'total', total, 'a positive integer') end
  end
  if t ~= nil and t ~= sum then report('wrong-total', 'total', t, sum) end

  -- seen against the entries the watermark covers, counted in each set: O(authors log n).
  local watermark = redis.pcall('HGET', KEYS[3], 'seen')
  if failed(watermark) then
    report('wrong-type', 'floors', type_of(KEYS[3]), 'hash')
    return found
  end
  local covered = 0
  if watermark then
    for i = 3, #ARGV do covered = covered + redis.call('ZCOUNT', KEYS[i + 1], '-inf', watermark) end
  end
  local s = 0
  if seen ~= nil then
    s = integer(seen)
    if s == nil or s <= 0 then report('bad-field', 'seen', seen, 'a positive integer') end
  end
  if s ~= nil and s ~= covered then report('wrong-seen', 'seen', s, covered) end
end

for i = 3, #ARGV do
  local author = ARGV[i]
  local size = size_of[author]
  local counted
  if mode == 'user' then
    counted = value_of[author] ~= nil
  else
    local reply = redis.pcall('HEXISTS', KEYS[1], author)
    if failed(reply) then
      report('wrong-type', 'counts', type_of(KEYS[1]), 'hash')
      return found
    end
    counted = reply == 1
  end
  if size > 0 and not counted then report(has_counts and 'missing-count' or 'orphan-set', author, size, 0) end
  -- Sets with a count are checked against the cap in 'user' mode only, so the scan over unread keys repeats nothing.
  if size > cap and (mode == 'user' or not counted) then report('over-cap', author, size, cap) end
end
if mode ~= 'user' then return found end

-- The merged index's size against the union of the sets (O(authors)); entry by entry the caller compares them in
-- slices (check_merged.lua), as one script over every entry would hold Redis for seconds for a heavy user.
local merged_size = redis.pcall('ZCARD', KEYS[2])
if failed(merged_size) then
  report('wrong-type', 'merged', type_of(KEYS[2]), 'zset')
  return found
end
local union = 0
for i = 3, #ARGV do union = union + size_of[ARGV[i]] end
if merged_size ~= union then report('wrong-merged', 'merged', merged_size, union) end
return found
