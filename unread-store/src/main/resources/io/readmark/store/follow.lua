-- follow.lua: a user followed an author at a moment. Matters only after an unfollow of the same pair: deliveries
-- of the author's posts published after this follow are accepted again (deliver.lua).
-- KEYS[1] rm:{u:U}:floors   hash; field mA -> U<ms> or F<ms>, the pair's last unfollow or re-follow
-- ARGV[1] authorId  ARGV[2] followed at (ms)
-- Returns 1 if the pair's membership changed. Idempotent and order-independent: only a change newer than the last
-- one recorded counts, so a replayed follow from before the unfollow changes nothing. A first follow writes nothing.
local field = 'm' .. ARGV[1]
local membership = redis.call('HGET', KEYS[1], field)
if membership and tonumber(string.sub(membership, 2)) < tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], field, 'F' .. ARGV[2])
  return 1
end
return 0
