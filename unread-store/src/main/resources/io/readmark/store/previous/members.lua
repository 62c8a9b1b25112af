-- members.lua: prepended to every script; the members of rm:{u:U}:merged, the user's merged index.
-- A member is 16 bytes, authorId then blogId, each 8 bytes big-endian: ids are non-negative 64-bit (positive by
-- contract), so Redis's byte order of members is their numeric order. Lua numbers are doubles, exact only below 2^53: an id is never
-- turned into one number here, only into limbs of nine decimal digits, which stay exact.

-- The 8 big-endian bytes of a non-negative 64-bit id given in canonical decimal, or nil for anything else.
local function id_bytes(decimal)
  if #decimal > 19 or not (string.match(decimal, '^[1-9]%d*$') or decimal == '0') then return nil end
  local split = #decimal - 9
  local high, low = 0, tonumber(decimal)
  if split > 0 then
    high, low = tonumber(string.sub(decimal, 1, split)), tonumber(string.sub(decimal, split + 1))
  end
  -- above 2^63 - 1 = 9223372036 854775807
  if high > 9223372036 or (high == 9223372036 and low > 854775807) then return nil end
  -- Long division of high * 10^9 + low by 256, eight times: every intermediate stays below 2^38.
  local bytes = {}
  for i = 8, 1, -1 do
    local high_quotient = math.floor(high / 256)
    local current = (high - high_quotient * 256) * 1000000000 + low
    local low_quotient = math.floor(current / 256)
    bytes[i] = current - low_quotient * 256
    high, low = high_quotient, low_quotient
  end
  return string.char(unpack(bytes))
end

-- ZREM from the merged index the entries of the blogs at positions 1, 1 + step, ... of a reply (step 2 skips
-- the scores of a WITHSCORES reply), each member being author_prefix .. the blog's bytes. In batches, as
-- unpack is bounded by Lua's stack.
local function zrem_merged(merged_key, author_prefix, reply, step)
  local batch = {}
  for i = 1, #reply, step do
    local blog = id_bytes(reply[i])
    if blog then batch[#batch + 1] = author_prefix .. blog end
    if #batch == 1000 then
      redis.call('ZREM', merged_key, unpack(batch))
      batch = {}
    end
  end
  if #batch > 0 then redis.call('ZREM', merged_key, unpack(batch)) end
end

-- Lowercase hex of a byte string, for replies to a client that reads text: one format call per string.
local function hex(bytes)
  return string.format(string.rep('%02x', #bytes), string.byte(bytes, 1, #bytes))
end
