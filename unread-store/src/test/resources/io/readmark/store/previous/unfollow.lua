-- unfollow.lua: a user stopped following an author; that author's unread goes away for them.
-- KEYS[1] rm:{u:U}:unread:A   KEYS[2] rm:{u:U}:counts   KEYS[3] rm:{u:U}:floors   KEYS[4] rm:{u:U}:merged
-- KEYS[5] rm:{u:U}:live  KEYS[6] rm:{u:U}:changes (notify.lua)
-- ARGV[1] authorId  ARGV[2] unfollowed at (ms)  ARGV[3] authorId as the 8 bytes that start its merged members
-- Returns how many unread blogs were dropped. Idempotent: a second run finds its own membership field and changes
-- nothing; so does a replayed unfollow older than the pair's last follow (follow.lua) or unfollow. An unfollow at
-- the very moment of a re-follow wins, as follow.lua lets it.
-- The membership field mA = U<at> refuses every later delivery of the author (deliver.lua) until a follow after `at`:
-- a big-V chunk made before this unfollow was processed stays out, whenever its post was published. The author's
-- floor also moves up to the unfollow time, so older posts stay out after a re-follow.
local author, at = ARGV[1], ARGV[2]
local field = 'm' .. author
local membership = redis.call('HGET', KEYS[3], field)
if membership then
  local since = tonumber(string.sub(membership, 2))
  if since > tonumber(at) or (since == tonumber(at) and string.sub(membership, 1, 1) == 'U') then return 0 end
end
redis.call('HSET', KEYS[3], field, 'U' .. at)
-- The whole set leaves the merged index too: at most the per-author cap.
local dropped = redis.call('ZRANGE', KEYS[1], 0, -1)
local seen = 0
if #dropped > 0 then
  seen = seen_through(KEYS[1], nil, redis.call('HGET', KEYS[3], 'seen'))
  zrem_merged(KEYS[4], ARGV[3], dropped, 1)
  redis.call('DEL', KEYS[1])
end
local floor = redis.call('HGET', KEYS[3], author)
if not floor or tonumber(at) > tonumber(floor) then redis.call('HSET', KEYS[3], author, at) end
adjust_counts(KEYS[2], author, -#dropped, -seen)
-- Only what the user sees: an unfollow of an author with nothing unread changes no count.
if #dropped > 0 then notify(KEYS[2], KEYS[5], KEYS[6], 'unfollowed', author) end
return #dropped
