-- b_read.lua (layout B): a user read one blog: inline, its record becomes a tombstone (or a tombstone is added while it
-- fits); else A's a_read. Returns 1 when it was unread.
-- KEYS[1] bucket  KEYS[2] z  KEYS[3] h  KEYS[4] live  KEYS[5] changes
-- ARGV[1] userId  ARGV[2] authorId  ARGV[3] blogId  ARGV[4] blogId as 8 bytes  ARGV[5] read at, seconds since 2020
-- ARGV[6] tombstones kept (on A)  ARGV[7] most records inline
local value = inline_value(KEYS[1], ARGV[1], KEYS[2], KEYS[3])
if value then
  local tombstone = struct.pack('>I4', tonumber(ARGV[5])) .. ARGV[4] .. NO_AUTHOR
  local at = inline_find(value, ARGV[4])
  if at then
    if string.sub(value, at + 12, at + 19) == NO_AUTHOR then return 0 end
    redis.call('HSET', KEYS[1], ARGV[1], string.sub(value, 1, at - 1) .. tombstone .. string.sub(value, at + INLINE))
    notify(KEYS[4], KEYS[5], 'read', ARGV[2], ARGV[3])
    return 1
  end
  if #value / INLINE < tonumber(ARGV[7]) then
    redis.call('HSET', KEYS[1], ARGV[1], value .. tombstone)
    return 0
  end
  promote(KEYS[1], ARGV[1], KEYS[2], KEYS[3], value)
end
return a_read(KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]))
