-- unfollow.lua: a user stopped following an author; that author's unread goes away for them.
-- KEYS[1] rm:{u:U}:unread:A   KEYS[2] rm:{u:U}:counts
-- ARGV[1] authorId
-- Returns how many unread blogs were dropped. Idempotent: a second run finds an empty set and changes nothing.
local author = ARGV[1]
local dropped = redis.call('ZCARD', KEYS[1])
if dropped > 0 then redis.call('DEL', KEYS[1]) end
adjust_counts(KEYS[2], author, -dropped)
return dropped
