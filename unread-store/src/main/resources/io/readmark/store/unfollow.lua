-- unfollow.lua: a user stopped following an author; that author's unread goes away for them.
-- KEYS[1] rm:{u:U}:unread:A   KEYS[2] rm:{u:U}:counts   KEYS[3] rm:{u:U}:floors
-- ARGV[1] authorId  ARGV[2] unfollowed at (ms)
-- Returns how many unread blogs were dropped. Idempotent: a second run finds an empty set and changes nothing.
-- The author's floor moves up to the unfollow time, so a big-V chunk still in flight for an older blog does not
-- bring the author back; posts after a later re-follow are newer and still arrive.
local author, at = ARGV[1], ARGV[2]
local dropped = redis.call('ZCARD', KEYS[1])
if dropped > 0 then redis.call('DEL', KEYS[1]) end
local floor = redis.call('HGET', KEYS[3], author)
if not floor or tonumber(at) > tonumber(floor) then redis.call('HSET', KEYS[3], author, at) end
adjust_counts(KEYS[2], author, -dropped)
return dropped
