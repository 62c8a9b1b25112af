-- check.lua (read-only): one user's counts against their unread sets (reconcile).
-- KEYS[1] rm:{u:U}:counts   KEYS[2..n+1] rm:{u:U}:unread:A for the authors A in ARGV[3..n+2], in the same order
-- ARGV[1] most unread kept per (U, A)
-- ARGV[2] 'user': the authors are every author field of counts (plus sets found without their count); every invariant
--         is checked, and {'stale', A} is returned when counts holds an author the caller did not pass (a writer
--         added it since the caller read the fields: read them again).
--         'sets': only whether each passed set has its count (the scan over unread keys).
-- Returns a flat list of findings, each four strings: kind, field, found, expected
--   bad-field A|total v   a field that is zero, negative or not an integer, or a field that is no author id
--   wrong-count A c z     counts[A] == c but ZCARD(unread:A) == z
--   missing-count A z 0   unread:A holds z entries, counts has no field A
--   orphan-set A z 0      unread:A holds z entries, the user has no counts at all
--   wrong-total total t s total (missing = 0) is t, the author fields sum to s
--   over-cap A z cap      unread:A holds more than the cap
--   wrong-type key type   a key of the user is not the Redis type the data model says
-- Atomic like every script: a writer's script runs wholly before or after it, so a live processor causes no false drift.
local cap, mode = tonumber(ARGV[1]), ARGV[2]
local found = {}
local function report(kind, field, value, expected)
  found[#found + 1] = kind
  found[#found + 1] = field
  found[#found + 1] = tostring(value)
  found[#found + 1] = tostring(expected)
end

local counts_type = type_of(KEYS[1])
if counts_type ~= 'hash' and counts_type ~= 'none' then
  report('wrong-type', 'counts', counts_type, 'hash')
  return found
end
local passed = {}
for i = 3, #ARGV do
  local key_type = type_of(KEYS[i - 1])
  if key_type ~= 'zset' and key_type ~= 'none' then
    report('wrong-type', 'unread:' .. ARGV[i], key_type, 'zset')
    return found
  end
  passed[ARGV[i]] = KEYS[i - 1]
end

if mode == 'user' then
  local fields = redis.call('HGETALL', KEYS[1])
  local sum, total = 0, nil
  for i = 1, #fields, 2 do
    local field, value = fields[i], fields[i + 1]
    local n = integer(value)
    if field == 'total' then
      total = value
    elseif not is_author(field) then
      report('bad-field', field, value, 'no such field')
    elseif not passed[field] then
      return {'stale', field}
    else
      if n == nil or n <= 0 then
        report('bad-field', field, value, 'a positive integer')
      else
        local size = redis.call('ZCARD', passed[field])
        if size ~= n then report('wrong-count', field, n, size) end
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
end

for i = 3, #ARGV do
  local author, key = ARGV[i], KEYS[i - 1]
  local size = redis.call('ZCARD', key)
  local counted = redis.call('HEXISTS', KEYS[1], author) == 1
  if size > 0 and not counted then
    report(counts_type == 'none' and 'orphan-set' or 'missing-count', author, size, 0)
  end
  -- Sets with a count are checked against the cap in 'user' mode only, so the scan over unread keys repeats nothing.
  if size > cap and (mode == 'user' or not counted) then report('over-cap', author, size, cap) end
end
return found
