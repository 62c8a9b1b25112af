-- read_all.lua: a user read everything of one author published at or before a moment.
-- KEYS[1] rm:{u:U}:unread:A   KEYS[2] rm:{u:U}:counts   KEYS[3] rm:{u:U}:floors   KEYS[4] rm:{u:U}:merged
-- KEYS[5] rm:{u:U}:live  KEYS[6] rm:{u:U}:changes (notify.lua)
-- ARGV[1] authorId  ARGV[2] readAt (ms)  ARGV[3] authorId as the 8 bytes that start its merged members (members.lua)
-- Returns how many blogs stopped being unread.
-- Idempotent: what is removed is what the counters change by; the floor only moves forward and keeps later
-- deliveries of older blogs out. The removed blogs are read first (at most the per-author cap) so that the merged
-- index loses exactly them.
local author, read_at = ARGV[1], ARGV[2]
local limits = redis.call('HMGET', KEYS[3], author, 'seen')
local removed = remove_through(KEYS[1], KEYS[2], KEYS[4], author, read_at, ARGV[3], limits[2])
if not limits[1] or tonumber(read_at) > tonumber(limits[1]) then redis.call('HSET', KEYS[3], author, read_at) end
if removed > 0 then notify(KEYS[2], KEYS[5], KEYS[6], 'read-all', author) end
return removed
