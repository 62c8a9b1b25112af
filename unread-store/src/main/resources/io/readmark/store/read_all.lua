-- read_all.lua: a user read everything of one author published at or before a moment.
-- KEYS[1] rm:{u:U}:unread:A   KEYS[2] rm:{u:U}:counts   KEYS[3] rm:{u:U}:floors
-- ARGV[1] authorId  ARGV[2] readAt (ms)
-- Returns how many blogs stopped being unread.
-- Idempotent: ZREMRANGEBYSCORE's count is what the counters change by; the floor only moves forward and keeps
-- later deliveries of older blogs out.
local author, read_at = ARGV[1], ARGV[2]
local removed = redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', read_at)
local floor = redis.call('HGET', KEYS[3], author)
if not floor or tonumber(read_at) > tonumber(floor) then redis.call('HSET', KEYS[3], author, read_at) end
adjust_counts(KEYS[2], author, -removed)
return removed
