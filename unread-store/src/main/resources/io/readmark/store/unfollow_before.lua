-- unfollow_before.lua: a user stopped following an author and followed again later, and the re-follow was processed
-- first (unfollow.lua then follow.lua, in the other order). Deliveries made meanwhile stay for posts published after
-- the re-follow; what was published at or before it goes, as the unfollow and the gap after it would have kept it out.
-- KEYS[1] rm:{u:U}:z   KEYS[2] rm:{u:U}:h   KEYS[3] rm:{u:U}:floors   (counters.lua)
-- KEYS[4] rm:{u:U}:live  KEYS[5] rm:{u:U}:changes (notify.lua)
-- ARGV[1] authorId  ARGV[2] unfollowed at (ms)  ARGV[3] followed again at (ms)
-- Returns how many unread blogs were dropped. Leaves what the two events leave in their order: mA = F<followed again
-- at>, so deliveries of the author's posts at or before it are refused (deliver.lua), unless mA already records that
-- re-follow or a newer change (a later unfollow, which dropped the set, or a follow after it); a re-follow recorded
-- later than this one but after the same unfollow moves back to it, as in follow.lua. The author's floor is raised to
-- the unfollow time. Idempotent.
local author, unfollowed_at, followed_at = ARGV[1], ARGV[2], ARGV[3]
local field = 'm' .. author
local membership = redis.call('HGET', KEYS[3], field)
local since = membership and tonumber(string.sub(membership, 2))
-- As in follow.lua, never back past the author's floor (every unfollow applied here) as it was before this one.
local floor = redis.call('HGET', KEYS[3], author)
local moves_back = membership and string.sub(membership, 1, 1) == 'F' and tonumber(followed_at) < since
    and tonumber(followed_at) > tonumber(unfollowed_at) and (not floor or tonumber(followed_at) > tonumber(floor))
if not membership or since < tonumber(followed_at) or moves_back then
  redis.call('HSET', KEYS[3], field, 'F' .. followed_at)
end
-- Whatever mA says (a replayed re-follow may have set it already), nothing published at or before the first follow
-- after an unfollow can be unread in event-time order: the unfollow dropped what came before it, and nothing between
-- the two was followed.
if not floor or tonumber(unfollowed_at) > tonumber(floor) then redis.call('HSET', KEYS[3], author, unfollowed_at) end
local dropped = drop_through(KEYS[1], KEYS[2], author, second_of(followed_at), redis.call('HGET', KEYS[3], 'seen'))
if dropped > 0 then notify(KEYS[2], KEYS[4], KEYS[5], 'unfollowed', author) end
return dropped
