-- check.lua (read-only): one user's counts and records against z (reconcile). Prepended: author_field.lua,
-- members.lua, counters.lua.
-- KEYS[1] rm:{u:U}:h   KEYS[2] rm:{u:U}:z   KEYS[3] rm:{u:U}:floors
-- ARGV[1] most unread kept per (U, A)  ARGV[2] most unread kept per U
-- Returns a flat list of findings, each four strings: kind, field, found, expected
--   bad-field F v         total, seen or a field that is no author id nor notices or v: not a positive integer or no such field
--   bad-records A n       author A's value is not whole records newest first without repeats (n bytes)
--   missing-entry A b     a record of A whose blog b z does not hold as unread at the record's second
--   stray-entry - b       z holds blog b as unread and no record names it
--   wrong-total total t s total (missing = 0) is t, the records number s
--   wrong-seen seen c s   seen (missing = 0) is c, s records are at or before the seen watermark's second
--   over-cap A n cap      A has more records than the per-author cap (field total: the per-user cap)
--   wrong-type key type   a key of the user is not the Redis type the data model says
-- O(the user's entries): the caps bound them. Atomic like every script: a writer's script runs wholly before or
-- after it, so a live processor causes no false drift.
local cap, user_cap = tonumber(ARGV[1]), tonumber(ARGV[2])
local found = {}
local function report(kind, field, value, expected)
  found[#found + 1] = kind
  found[#found + 1] = field
  found[#found + 1] = tostring(value)
  found[#found + 1] = tostring(expected)
end
for i, expected in ipairs({'hash', 'zset', 'hash'}) do
  local key_type = type_of(KEYS[i])
  if key_type ~= expected and key_type ~= 'none' then
    report('wrong-type', ({'h', 'z', 'floors'})[i], key_type, expected)
    return found
  end
end

local unread = {}
local entries = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '0', 'WITHSCORES')
for i = 1, #entries, 2 do unread[entries[i]] = -tonumber(entries[i + 1]) end
local watermark = redis.call('HGET', KEYS[3], 'seen')
local fields = redis.call('HGETALL', KEYS[1])
local records, covered, total, seen, named = 0, 0, nil, nil, {}
for i = 1, #fields, 2 do
  local field, value = fields[i], fields[i + 1]
  if field == 'total' then
    total = value
  elseif field == 'seen' then
    seen = value
  elseif field == 'notices' or field == 'v' then
    -- checked by check_notices.lua; the state version counts changes, nothing to check it against
  elseif not is_author(field) then
    report('bad-field', field, value, 'no such field')
  elseif #value == 0 or #value % RECORD ~= 0 then
    report('bad-records', field, #value, 'whole records')
  else
    local count = #value / RECORD
    for at = 1, count do
      local record = record_at(value, at)
      if at > 1 and not before(record_at(value, at - 1), record) then
        report('bad-records', field, #value, 'newest first, no repeats')
        break
      end
    end
    for at = 1, count do
      local record = record_at(value, at)
      local blog, s = id_decimal(string.sub(record, 5)), record_second(record)
      if unread[blog] ~= s or named[blog] then report('missing-entry', field, blog, s) end
      named[blog] = true
      if watermark and s <= second_of(watermark) then covered = covered + 1 end
    end
    records = records + count
    if count > cap then report('over-cap', field, count, cap) end
  end
end
for blog in pairs(unread) do
  if not named[blog] then report('stray-entry', '-', blog, 'a record') end
end
local function check_count(name, value, expected, kind)
  local n = 0
  if value ~= nil then
    n = integer(value)
    if n == nil or n <= 0 then report('bad-field', name, value, 'a positive integer') end
  end
  if n ~= nil and n ~= expected then report(kind, name, n, expected) end
end
check_count('total', total, records, 'wrong-total')
check_count('seen', seen, covered, 'wrong-seen')
if records > user_cap then report('over-cap', 'total', records, user_cap) end
return found
