-- read_all.lua: a user read everything of one author published at or before a moment.
-- KEYS[1] rm:{u:U}:z   KEYS[2] rm:{u:U}:h   KEYS[3] rm:{u:U}:floors   (counters.lua)
-- KEYS[4] rm:{u:U}:live  KEYS[5] rm:{u:U}:changes (notify.lua)
-- ARGV[1] authorId  ARGV[2] readAt (ms)
-- Returns how many blogs stopped being unread: at most the per-author cap, found by one binary search of the blob.
-- Idempotent: what is removed is what the counters change by; the floor only moves forward and keeps later
-- deliveries of older blogs out (whole seconds, as entries are compared).
local author, read_at = ARGV[1], ARGV[2]
local limits = redis.call('HMGET', KEYS[3], author, 'seen')
local removed = drop_through(KEYS[1], KEYS[2], author, second_of(read_at), limits[2])
raise_floor(KEYS[3], author, read_at, limits[1])
if removed > 0 then notify(KEYS[2], KEYS[4], KEYS[5], 'read-all', author) end
return removed
