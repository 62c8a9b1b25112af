-- b_deliver.lua (layout B): one published blog becomes unread for one user: inline while it fits, else A's a_deliver.
-- KEYS[1] bucket  KEYS[2] z  KEYS[3] h  KEYS[4] live  KEYS[5] changes
-- ARGV[1] userId  ARGV[2] authorId  ARGV[3] blogId  ARGV[4] the 12-byte record (seconds since 2020, blogId)
-- ARGV[5] authorId as 8 bytes  ARGV[6] cap per author  ARGV[7] most records inline
-- Idempotent: a record of the blog (unread or read) inline, or A's ZADD NX, means nothing changes.
local value = inline_value(KEYS[1], ARGV[1], KEYS[2], KEYS[3])
if value then
  if inline_find(value, string.sub(ARGV[4], 5, 12)) then return 0 end
  if #value / INLINE < tonumber(ARGV[7]) then
    redis.call('HSET', KEYS[1], ARGV[1], value .. ARGV[4] .. ARGV[5])
    notify(KEYS[4], KEYS[5], 'delivered', ARGV[2], ARGV[3])
    return 1
  end
  promote(KEYS[1], ARGV[1], KEYS[2], KEYS[3], value)
end
return a_deliver(KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[6]))
