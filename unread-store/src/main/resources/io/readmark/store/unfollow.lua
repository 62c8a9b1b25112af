-- unfollow.lua: a user stopped following an author; that author's unread goes away for them.
-- KEYS[1] rm:{u:U}:z   KEYS[2] rm:{u:U}:h   KEYS[3] rm:{u:U}:floors   (counters.lua)
-- KEYS[4] rm:{u:U}:live  KEYS[5] rm:{u:U}:changes (notify.lua)
-- ARGV[1] authorId  ARGV[2] unfollowed at (ms)
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
-- The author's whole blob goes: at most the per-author cap.
local dropped = drop_through(KEYS[1], KEYS[2], author, MAX_SECOND, redis.call('HGET', KEYS[3], 'seen'))
raise_floor(KEYS[3], author, at, redis.call('HGET', KEYS[3], author))
-- Only what the user sees: an unfollow of an author with nothing unread changes no count.
if dropped > 0 then notify(KEYS[2], KEYS[4], KEYS[5], 'unfollowed', author) end
return dropped
