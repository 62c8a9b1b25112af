-- follow.lua: a user followed an author at a moment. Matters only after an unfollow of the same pair: deliveries
-- of the author's posts published after this follow are accepted again (deliver.lua).
-- KEYS[1] rm:{u:U}:floors   hash; field mA -> U<ms> or F<ms>, the pair's last unfollow or re-follow; field A, the
--                            author's floor
-- ARGV[1] authorId  ARGV[2] followed at (ms)  ARGV[3] the pair's last unfollow before this follow (ms), or empty
-- when unknown
-- Returns 1 if the pair's membership changed. Idempotent and order-independent: a change newer than the last one
-- recorded counts, and so does a re-follow older than the one recorded but after the unfollow before it (the earliest
-- follow after an unfollow is when the pair follows again); a replayed follow from before the unfollow changes
-- nothing. A first follow writes nothing.
local field = 'm' .. ARGV[1]
local membership = redis.call('HGET', KEYS[1], field)
if not membership then return 0 end
local state, since, at = string.sub(membership, 1, 1), tonumber(string.sub(membership, 2)), tonumber(ARGV[2])
-- Moving back only past what Redis knows: the author's floor is at least every unfollow applied here, so a replay
-- (a rebuild beside the live processor) cannot move a later re-follow back over a later unfollow.
local floor = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or ARGV[3])
local moves_back = state == 'F' and ARGV[3] ~= '' and at < since and at > tonumber(ARGV[3]) and at > floor
if since < at or moves_back then
  redis.call('HSET', KEYS[1], field, 'F' .. ARGV[2])
  return 1
end
return 0
