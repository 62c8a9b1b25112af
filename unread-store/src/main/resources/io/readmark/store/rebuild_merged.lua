-- rebuild_merged.lua (reconcile --repair): a slice of one unread set into the user's merged index.
-- KEYS[1] rm:{u:U}:merged   KEYS[2] rm:{u:U}:unread:A
-- ARGV[1] authorId  ARGV[2] first rank of the slice  ARGV[3] its length
-- Returns {entries added, ZCARD(unread:A)}.
-- repair.lua drops the index first; the caller then copies every set into it slice by slice. A live processor keeps
-- adding and removing in both meanwhile, so each slice copies what the set holds at that moment and the index ends
-- as the union of the sets.
local prefix = id_bytes(ARGV[1])
local first = tonumber(ARGV[2])
local size = redis.call('ZCARD', KEYS[2])
if not prefix then return {0, size} end
local rows = redis.call('ZRANGE', KEYS[2], first, first + tonumber(ARGV[3]) - 1, 'WITHSCORES')
local batch = {}
for i = 1, #rows, 2 do
  local blog = id_bytes(rows[i])
  if blog then
    batch[#batch + 1] = rows[i + 1]
    batch[#batch + 1] = prefix .. blog
  end
end
local added = 0
if #batch > 0 then added = redis.call('ZADD', KEYS[1], unpack(batch)) end
return {added, size}
