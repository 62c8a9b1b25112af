-- all_read_author.lua: the part of an all-read (all_read.lua) that concerns one author with unread.
-- KEYS[1] rm:{u:U}:unread:A   KEYS[2] rm:{u:U}:counts   KEYS[3] rm:{u:U}:floors   KEYS[4] rm:{u:U}:merged
-- KEYS[5] rm:{u:U}:live  KEYS[6] rm:{u:U}:changes (notify.lua)
-- ARGV[1] authorId  ARGV[2] readAt (ms)  ARGV[3] authorId as the 8 bytes that start its merged members (members.lua)
-- Returns how many blogs stopped being unread: at most the per-author cap.
-- Like read_all.lua without the author's floor: all_read.lua raised the user's floor first, which keeps every later
-- delivery of an older blog out, so removing what is left at or before readAt is idempotent and commutes with every
-- other script.
local watermark = redis.call('HGET', KEYS[3], 'seen')
local removed = remove_through(KEYS[1], KEYS[2], KEYS[4], ARGV[1], ARGV[2], ARGV[3], watermark)
if removed > 0 then notify(KEYS[2], KEYS[5], KEYS[6], 'all-read', ARGV[1]) end
return removed
