-- counters.lua: prepended to every script that changes unread entries; the user's layout and its shared steps.
-- rm:{u:U}:z  sorted set: member blogId (decimal, so Redis stores an integer); score -s for an unread entry, s being
--             the second it was published (second_of); s + 1 of the moment it was read or deleted for a tombstone
--             (> 0, so tombstones rank after every unread entry, oldest read first), which keeps a late delivery out.
-- rm:{u:U}:h  hash: field authorId -> the author's unread entries, newest first, as RECORD-byte records
--             (record_of); fields total, seen, notices and v (notify.lua) as counts.
-- rm:{u:U}:floors  hash of moments in ms (field authorId, mA, all, seen, notices, trim; see deliver.lua).
-- Invariants after every script: the records of h's author fields and z's entries scored <= 0 are the same blogs at
-- the same seconds; total is how many; seen how many of them are covered by the seen watermark.
-- A record is 4 bytes (MAX_SECOND + 1 - s, big-endian) then the blogId's 8 bytes (members.lua): byte order is newest
-- second first, then blogId ascending.

local RECORD = 12
local MAX_SECOND = 4294967294

-- A moment in ms (text or number) as the second entries and floors are compared in: times before 1970 count as
-- 1970, after 2106 as 2106 (four bytes).
local function second_of(ms)
  local s = math.floor(tonumber(ms) / 1000)
  if s < 0 then return 0 end
  if s > MAX_SECOND then return MAX_SECOND end
  return s
end

-- Numbers go to Redis as text formatted here: Redis 7.0 formats a Lua number argument with %.17g, which is slow.
local function text(n)
  return string.format('%d', n)
end

-- Whether an entry of second s is covered by a floor (ms text, or false/nil for none).
local function covered(s, floor)
  return floor and s <= second_of(floor)
end

local function record_of(s, blog_bytes)
  return struct.pack('>I4', MAX_SECOND + 1 - s) .. blog_bytes
end

local function record_at(blob, i)
  return string.sub(blob, (i - 1) * RECORD + 1, i * RECORD)
end

local function record_second(record)
  return MAX_SECOND + 1 - (struct.unpack('>I4', record))
end

-- a before b in the records' order (their bytes), compared as three 32-bit halves: Lua's < follows the locale.
local function before(a, b)
  local a1, a2, a3 = struct.unpack('>I4I4I4', a)
  local b1, b2, b3 = struct.unpack('>I4I4I4', b)
  if a1 ~= b1 then return a1 < b1 end
  if a2 ~= b2 then return a2 < b2 end
  return a3 < b3
end

-- a < b as bytes (memcmp, then the shorter first), as Redis orders equal-score members: Lua's < follows the locale.
local function bytes_before(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- The 1-based index of the first record of a blob for which test(record) holds, or count + 1: a binary search, as
-- test is false and then true over the records.
local function first_where(blob, test)
  local low, high = 1, #blob / RECORD + 1
  while low < high do
    local middle = math.floor((low + high) / 2)
    if test(record_at(blob, middle)) then high = middle else low = middle + 1 end
  end
  return low
end

-- The first record at or after `record` in order (count + 1 when none).
local function first_from(blob, record)
  return first_where(blob, function(other) return not before(other, record) end)
end

-- The first record of second <= s: where the records that a floor of second s covers start.
local function first_covered(blob, s)
  return first_where(blob, function(other) return record_second(other) <= s end)
end

-- The canonical decimal of 8 big-endian bytes (a positive 64-bit id): directly below 2^53, where a double is exact;
-- above, long division of four 16-bit limbs by 10^9, every intermediate below 2^47.
local function id_decimal(bytes)
  local high, low = struct.unpack('>I4I4', bytes)
  if high < 2097152 then return string.format('%.0f', high * 4294967296 + low) end
  local limbs = {}
  for i = 1, 8, 2 do limbs[#limbs + 1] = string.byte(bytes, i) * 256 + string.byte(bytes, i + 1) end
  local parts = {}
  for round = 1, 3 do
    local remainder = 0
    for i = 1, 4 do
      local current = remainder * 65536 + limbs[i]
      limbs[i] = math.floor(current / 1000000000)
      remainder = current - limbs[i] * 1000000000
    end
    parts[round] = remainder
  end
  if parts[3] > 0 then return string.format('%d%09d%09d', parts[3], parts[2], parts[1]) end
  if parts[2] > 0 then return string.format('%d%09d', parts[2], parts[1]) end
  return string.format('%d', parts[1])
end

-- redis.call(command, key, ...list) in batches of 1,000 (even, so field-value pairs stay together): unpack is bounded
-- by Lua's stack, and a user's authors or a drifted hash's fields have no such bound.
local function call_batched(command, key, list)
  for i = 1, #list, 1000 do redis.call(command, key, unpack(list, i, math.min(#list, i + 999))) end
end

-- Adds delta to one field of h, deleting the field when it reaches zero.
local function adjust_field(h, field, delta)
  if delta ~= 0 and redis.call('HINCRBY', h, field, text(delta)) <= 0 then
    redis.call('HDEL', h, field)
  end
end

-- How many records first..last of a blob (newest first) the seen watermark (ms text, or false) covers: a tail.
local function seen_among(blob, first, last, watermark)
  if not watermark or last < first then return 0 end
  local from = first_covered(blob, second_of(watermark))
  if from < first then from = first end
  if from > last then return 0 end
  return last - from + 1
end

-- Drops records `from`..count of the author's blob from h and z, with their counts. Returns how many it dropped.
-- At most the blob's records (the per-author cap).
local function drop_from(z, h, author, blob, from, watermark)
  local count = #blob / RECORD
  if from > count then return 0 end
  local blogs = {}
  for i = from, count do blogs[#blogs + 1] = id_decimal(string.sub(blob, (i - 1) * RECORD + 5, i * RECORD)) end
  call_batched('ZREM', z, blogs)
  local seen = seen_among(blob, from, count, watermark)
  if from == 1 then
    redis.call('HDEL', h, author)
  else
    redis.call('HSET', h, author, string.sub(blob, 1, (from - 1) * RECORD))
  end
  adjust_field(h, 'total', -(count - from + 1))
  adjust_field(h, 'seen', -seen)
  return count - from + 1
end

-- Drops the author's entries of second <= s (a moment's second). Returns how many it dropped.
local function drop_through(z, h, author, s, watermark)
  local blob = redis.call('HGET', h, author)
  if not blob then return 0 end
  return drop_from(z, h, author, blob, first_covered(blob, s), watermark)
end

-- Raises a floors field (ms) to `at` (ms text); it only moves forward.
local function raise_floor(floors, field, at, current)
  if not current or tonumber(at) > tonumber(current) then redis.call('HSET', floors, field, at) end
end

-- Whether a field of h is an author's: a positive decimal id (the others are total, seen, notices, v).
local function is_author_field(field)
  return string.match(field, '^[1-9]%d*$') ~= nil
end
