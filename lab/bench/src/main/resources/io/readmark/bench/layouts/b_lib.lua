-- b_lib.lua: layout B, tiny users inline (bench study only), prepended after a_lib.lua to every script of layout B.
-- bucket  hash rm:{b:N}:tiny, N = userId / 128: field <userId> -> the user's whole state while it is small, records of
--         20 bytes in no order: seconds since 2020 (4 bytes), blogId (8), authorId (8); a tombstone (a read blog) has
--         authorId 0 and the read's seconds. No floors inline.
-- A user leaves the bucket for layout A's keys (z, h, under the bucket's hash tag, so one script still touches one
-- slot) when a write would need more than max_inline records, and before its first read-all or AllRead (which need a
-- floor). A user whose A keys are all gone is inline again from its next write: nothing of its state is left.
-- The value must stay within hash-max-listpack-value, or the whole bucket becomes a hashtable.

local INLINE = 20
local NO_AUTHOR = string.rep('\0', 8)

-- The user's inline value: '' for a user with no state at all, nil for a user on A's keys. A's keys are asked
-- first: EXISTS is a lookup, HGET on the bucket a scan of up to 256 listpack entries, and most writes go to users
-- with many entries, on A.
local function inline_value(bucket, user, z, h)
  if redis.call('EXISTS', z, h) > 0 then return nil end
  return redis.call('HGET', bucket, user) or ''
end

-- The inline value of a user, for a read: nil when the user has h (entries or floors on A's keys) or no state.
local function inline_for_read(bucket, user, h)
  if redis.call('EXISTS', h) == 1 then return nil end
  return redis.call('HGET', bucket, user)
end

-- The offset of the record of a blog (its 8 bytes) in an inline value, or nil.
local function inline_find(value, blog_bytes)
  for at = 1, #value, INLINE do
    if string.sub(value, at + 4, at + 11) == blog_bytes then return at end
  end
  return nil
end

-- Moves an inline user to A's keys: entries into z and their authors' blobs, tombstones into z.
local function promote(bucket, user, z, h, value)
  redis.call('HDEL', bucket, user)
  if value == '' then return end
  local members, blobs, authors, total = {}, {}, {}, 0
  for at = 1, #value, INLINE do
    local seconds = struct.unpack('>I4', value, at)
    local blog_bytes, author_bytes = string.sub(value, at + 4, at + 11), string.sub(value, at + 12, at + 19)
    local blog = id_decimal(blog_bytes)
    if author_bytes == NO_AUTHOR then
      members[#members + 1] = text(seconds + 1)
      members[#members + 1] = blog
    else
      members[#members + 1] = text(-seconds)
      members[#members + 1] = blog
      local author = id_decimal(author_bytes)
      if not blobs[author] then
        blobs[author] = {}
        authors[#authors + 1] = author
      end
      table.insert(blobs[author], string.sub(value, at, at + 11))
      total = total + 1
    end
  end
  redis.call('ZADD', z, unpack(members))
  if total == 0 then return end
  local fields = {'t', text(total)}
  for _, author in ipairs(authors) do
    table.sort(blobs[author], newer)
    fields[#fields + 1] = author
    fields[#fields + 1] = table.concat(blobs[author])
  end
  redis.call('HSET', h, unpack(fields))
end

-- The inline entries (not tombstones), each {record = seconds..blogId (12 bytes), author = decimal}.
local function inline_entries(value)
  local entries = {}
  for at = 1, #value, INLINE do
    local author_bytes = string.sub(value, at + 12, at + 19)
    if author_bytes ~= NO_AUTHOR then
      entries[#entries + 1] = {record = string.sub(value, at, at + 11), author_bytes = author_bytes}
    end
  end
  return entries
end
