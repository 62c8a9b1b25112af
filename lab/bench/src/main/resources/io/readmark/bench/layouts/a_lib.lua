-- a_lib.lua: the study's first version of layout A, two keys per user (bench study only), which layout B keeps its
-- users past the inline records in. The product's layout A grew from it (counters.lua: seconds since 1970, floors in
-- a hash of their own, a per-user cap), and the study measures the product's itself; this stays as B's base, so B is
-- measured as it was designed. Prepended, after the product's members.lua (id_bytes) and notify.lua (notify), to every
-- script of layout B.
-- Reads: counts are one HGETALL of h, an author's page one HGET of the author's field (the blob is the page, newest
-- first, at most cap x 12 bytes); the merged page is a_merged_page.
-- z  sorted set: member blogId (decimal, so Redis stores it as an integer); score -(seconds since 2020) for an unread
--    entry, so the newest entry sits at the listpack's head, where inserts and pages start; score 1 + (seconds since
--    2020 of the read) for a tombstone, which keeps a replayed or late delivery of a read blog out (the product's marks).
-- h  hash: field <authorId> -> that author's unread entries, newest first, 12 bytes each (seconds 4 bytes, blogId 8
--    bytes, big-endian: byte order is (seconds, blogId) order); field t -> how many unread entries (Σ entries of the
--    author fields == entries of z with a score <= 0); field g -> the AllRead floor; f<authorId> -> the author's
--    read-all floor (seconds: nothing published at or before it is unread).
-- Time has a resolution of one second: a read-all at 12:00:00.300 also covers a post of 12:00:00.700.
-- Numbers go to Redis as text formatted here: Redis 7.0 formats a Lua number argument with %.17g, which is slow.

local RECORD = 12

local function text(n)
  return string.format('%d', n)
end

local function record_seconds(blob, index)
  return (struct.unpack('>I4', blob, (index - 1) * RECORD + 1))
end

-- a sorts before b in newest-first order, compared as 12-byte records (seconds, then blogId as two 32-bit halves).
local function newer(a, b)
  local as, ah, al = struct.unpack('>I4I4I4', a)
  local bs, bh, bl = struct.unpack('>I4I4I4', b)
  if as ~= bs then return as > bs end
  if ah ~= bh then return ah > bh end
  return al > bl
end

-- The canonical decimal of 8 big-endian bytes (a non-negative 64-bit id): directly below 2^53, where a double is
-- exact; above, long division of four 16-bit limbs by 10^9, every intermediate below 2^47.
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

-- The 8 big-endian bytes of a canonical decimal id: directly below 10^15, where a double is exact; above, by
-- members.lua's id_bytes (long division on limbs).
local function id_bytes_of(decimal)
  if #decimal <= 15 then
    local n = tonumber(decimal)
    local high = math.floor(n / 4294967296)
    return struct.pack('>I4I4', high, n - high * 4294967296)
  end
  return id_bytes(decimal)
end

-- ZREM of the blogs of records first..last of a blob, in batches (unpack is bounded by Lua's stack).
local function zrem_records(z, blob, first, last)
  local batch = {}
  for i = first, last do
    batch[#batch + 1] = id_decimal(string.sub(blob, (i - 1) * RECORD + 5, i * RECORD))
    if #batch == 1000 then
      redis.call('ZREM', z, unpack(batch))
      batch = {}
    end
  end
  if #batch > 0 then redis.call('ZREM', z, unpack(batch)) end
end

-- The 1-based index of the first record of a blob for which older(record) holds, or count + 1: a binary search, as
-- the records are in newest-first order and older() is monotonic over them.
local function first_where(blob, older)
  local low, high = 1, #blob / RECORD + 1
  while low < high do
    local middle = math.floor((low + high) / 2)
    if older(string.sub(blob, (middle - 1) * RECORD + 1, middle * RECORD)) then high = middle else low = middle + 1 end
  end
  return low
end

-- Writes an author's blob and the total in one HSET (and one HDEL for what became empty), with extra field pairs.
local function store(h, author, blob, total, extra)
  local sets, dels = extra or {}, {}
  if #blob > 0 then
    sets[#sets + 1] = author
    sets[#sets + 1] = blob
  else
    dels[#dels + 1] = author
  end
  if total > 0 then
    sets[#sets + 1] = 't'
    sets[#sets + 1] = text(total)
  else
    dels[#dels + 1] = 't'
  end
  if #sets > 0 then redis.call('HSET', h, unpack(sets)) end
  if #dels > 0 then redis.call('HDEL', h, unpack(dels)) end
end

-- One published blog becomes unread: HMGET (floors, the author's blob, the total), ZADD NX, HSET. Idempotent: ZADD NX
-- finds an unread entry or a tombstone of the blog and nothing is counted. Past the cap the oldest entries go and the
-- author's floor rises to the newest of them, so a replay of a trimmed blog stays out. Returns the change of the count.
local function a_deliver(z, h, live, changes, author, blog, record, cap)
  local seconds = record_seconds(record, 1)
  local got = redis.call('HMGET', h, 'g', 'f' .. author, author, 't')
  if (got[1] and seconds <= tonumber(got[1])) or (got[2] and seconds <= tonumber(got[2])) then return 0 end
  if redis.call('ZADD', z, 'NX', text(-seconds), blog) == 0 then return 0 end
  local blob = got[3] or ''
  -- The usual post is the author's newest: it goes to the head without a search.
  local at = 1
  if #blob > 0 and not newer(record, string.sub(blob, 1, RECORD)) then
    at = first_where(blob, function(other) return newer(record, other) end)
  end
  blob = string.sub(blob, 1, (at - 1) * RECORD) .. record .. string.sub(blob, (at - 1) * RECORD + 1)
  local count = #blob / RECORD
  if count <= cap then
    redis.call('HSET', h, author, blob, 't', text(tonumber(got[4] or '0') + 1))
    notify(live, changes, 'delivered', author, blog)
    return 1
  end
  zrem_records(z, blob, cap + 1, count)
  local floor, extra = record_seconds(blob, cap + 1), nil
  if not got[2] or floor > tonumber(got[2]) then extra = {'f' .. author, text(floor)} end
  local delta = 1 - (count - cap)
  store(h, author, string.sub(blob, 1, cap * RECORD), tonumber(got[4] or '0') + delta, extra)
  if delta ~= 0 or at <= cap then notify(live, changes, 'delivered', author, blog) end
  return delta
end

-- Keeps the newest max_marks tombstones: they rank after every unread entry (positive scores), oldest first.
local function trim_tombstones(z, h, max_marks)
  local card = redis.call('ZCARD', z)
  if card <= max_marks then return end
  local total = tonumber(redis.call('HGET', h, 't') or '0')
  local excess = card - total - max_marks
  if excess > 0 then redis.call('ZREMRANGEBYRANK', z, total, total + excess - 1) end
end

-- A user read one blog: its entry (if unread) leaves the author's blob and the total, and the blog becomes a
-- tombstone either way, so a delivery that comes later changes nothing. Returns 1 when it was unread.
local function a_read(z, h, live, changes, author, blog, blog_bytes, read_seconds, max_marks)
  local score = redis.call('ZSCORE', z, blog)
  if score and tonumber(score) > 0 then return 0 end
  local removed = 0
  if score then
    local record = struct.pack('>I4', -tonumber(score)) .. blog_bytes
    local got = redis.call('HMGET', h, author, 't')
    local blob = got[1] or ''
    local at = first_where(blob, function(other) return not newer(other, record) end)
    if string.sub(blob, (at - 1) * RECORD + 1, at * RECORD) == record then
      store(h, author, string.sub(blob, 1, (at - 1) * RECORD) .. string.sub(blob, at * RECORD + 1), tonumber(got[2]) - 1)
      removed = 1
    end
  end
  redis.call('ZADD', z, text(read_seconds + 1), blog)
  trim_tombstones(z, h, max_marks)
  if removed == 1 then notify(live, changes, 'read', author, blog) end
  return removed
end

-- A user read everything of one author published at or before read_seconds: the blob's tail from the first record
-- that old, out of z and the total; the author's floor only moves forward. Returns how many entries it removed.
local function a_read_all(z, h, live, changes, author, read_seconds)
  local got = redis.call('HMGET', h, author, 'f' .. author, 't')
  local blob = got[1] or ''
  local at = first_where(blob, function(record) return record_seconds(record, 1) <= read_seconds end)
  local count = #blob / RECORD
  local removed = count - at + 1
  if removed > 0 then zrem_records(z, blob, at, count) end
  local extra = nil
  if not got[2] or read_seconds > tonumber(got[2]) then extra = {'f' .. author, text(read_seconds)} end
  if removed > 0 or extra then store(h, author, string.sub(blob, 1, (at - 1) * RECORD), tonumber(got[3] or '0') - removed, extra) end
  if removed > 0 then notify(live, changes, 'read-all', author) end
  return removed
end

-- A user read everything published at or before read_seconds: one ZREMRANGEBYSCORE over the entries that old, then
-- each author's blob cut where its entries get that old. One script: O(the user's entries + authors), bounded when a
-- user's entries are. The floor g only moves forward and keeps later deliveries of older blogs out.
local function a_all_read(z, h, live, changes, read_seconds)
  local floor = redis.call('HGET', h, 'g')
  local extra = {}
  if not floor or read_seconds > tonumber(floor) then extra = {'g', text(read_seconds)} end
  local removed = redis.call('ZREMRANGEBYSCORE', z, text(-read_seconds), '0')
  if removed == 0 then
    if #extra > 0 then redis.call('HSET', h, unpack(extra)) end
    return 0
  end
  local fields = redis.call('HGETALL', h)
  local total, dels = 0, {}
  for i = 1, #fields, 2 do
    local field, value = fields[i], fields[i + 1]
    if field == 't' then
      total = tonumber(value)
    elseif string.match(field, '^%d') then
      local at = first_where(value, function(record) return record_seconds(record, 1) <= read_seconds end)
      if at == 1 then
        dels[#dels + 1] = field
      elseif at <= #value / RECORD then
        extra[#extra + 1] = field
        extra[#extra + 1] = string.sub(value, 1, (at - 1) * RECORD)
      end
    end
  end
  total = total - removed
  if total > 0 then
    extra[#extra + 1] = 't'
    extra[#extra + 1] = text(total)
  else
    dels[#dels + 1] = 't'
  end
  if #extra > 0 then redis.call('HSET', h, unpack(extra)) end
  if #dels > 0 then redis.call('HDEL', h, unpack(dels)) end
  notify(live, changes, 'all-read')
  return removed
end

-- a < b as bytes (memcmp, then the shorter first), as Redis orders equal-score members: Lua's < follows the locale.
local function bytes_before(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

-- The merged page: up to n unread entries after the cursor (score and member; none: from the newest) in z's order,
-- (score, member) ascending, which is newest first. Returns {blogId, score, authorId, ...}: the authors are found in
-- h's blobs, O(the user's entries), as z holds blog ids only.
local function a_merged_page(z, h, n, cursor_score, cursor_member)
  local start = 0
  if cursor_score then
    local found = redis.call('ZSCORE', z, cursor_member)
    if found and tonumber(found) == tonumber(cursor_score) then
      start = redis.call('ZRANK', z, cursor_member) + 1
    else
      -- The cursor's entry is gone (read meanwhile): the first rank of its score's run whose member is above it.
      local low = redis.call('ZCOUNT', z, '-inf', '(' .. cursor_score)
      local high = low + redis.call('ZCOUNT', z, cursor_score, cursor_score)
      while low < high do
        local middle = math.floor((low + high) / 2)
        if bytes_before(cursor_member, redis.call('ZRANGE', z, middle, middle)[1]) then high = middle else low = middle + 1 end
      end
      start = low
    end
  end
  local rows = redis.call('ZRANGE', z, start, start + n - 1, 'WITHSCORES')
  local wanted, reply, missing = {}, {}, 0
  for i = 1, #rows, 2 do
    if tonumber(rows[i + 1]) > 0 then break end -- tombstones rank after every entry
    local record = struct.pack('>I4', -tonumber(rows[i + 1])) .. id_bytes_of(rows[i])
    reply[#reply + 1] = rows[i]
    reply[#reply + 1] = rows[i + 1]
    reply[#reply + 1] = false
    wanted[record] = #reply
    missing = missing + 1
  end
  if missing == 0 then return reply end
  local fields = redis.call('HGETALL', h)
  for i = 1, #fields, 2 do
    if string.match(fields[i], '^%d') then
      local blob = fields[i + 1]
      for at = 1, #blob, RECORD do
        local slot = wanted[string.sub(blob, at, at + RECORD - 1)]
        if slot then
          reply[slot] = fields[i]
          missing = missing - 1
          if missing == 0 then return reply end
        end
      end
    end
  end
  return reply
end
