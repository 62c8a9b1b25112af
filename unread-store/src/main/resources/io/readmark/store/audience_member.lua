-- audience_member.lua: a user joined or left an audience.
-- KEYS[1] rm:{u:U}:audiences  hash audience -> J<ms> (joined then) or L<ms> (left then)
-- KEYS[2] rm:{u:U}:live  KEYS[3] rm:{u:U}:changes (notify.lua): the user's streams follow their audiences' channels
-- KEYS[4] rm:{u:U}:h (its version, notify.lua)
-- ARGV[1] audience  ARGV[2] 'J' or 'L'  ARGV[3] at ms
-- Returns 1 when the membership changed, else 0.
-- The later time wins and a leave wins a tie, whatever order the events arrive in; a replay changes nothing.
local audience, kind, at = ARGV[1], ARGV[2], tonumber(ARGV[3])
local current = redis.call('HGET', KEYS[1], audience)
if current then
  local current_at = tonumber(string.sub(current, 2))
  if at < current_at or (at == current_at and (kind == 'J' or string.sub(current, 1, 1) == 'L')) then return 0 end
end
redis.call('HSET', KEYS[1], audience, kind .. ARGV[3])
notify(KEYS[4], KEYS[2], KEYS[3], kind == 'J' and 'joined' or 'left', audience)
return 1
