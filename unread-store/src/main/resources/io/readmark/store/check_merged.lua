-- check_merged.lua (read-only; reconcile): a slice of one unread set against the user's merged index.
-- KEYS[1] rm:{u:U}:merged   KEYS[2] rm:{u:U}:unread:A
-- ARGV[1] authorId  ARGV[2] first rank of the slice  ARGV[3] its length
-- Returns {entries of the slice missing from the index or there at another time, ZCARD(unread:A)}.
-- A slice, not the set, so no call holds Redis longer than its length allows whatever the set's size; each slice
-- is compared atomically, so a live processor causes no false drift.
local prefix = id_bytes(ARGV[1]) or ''
local first = tonumber(ARGV[2])
local rows = redis.call('ZRANGE', KEYS[2], first, first + tonumber(ARGV[3]) - 1, 'WITHSCORES')
local differ = 0
for i = 1, #rows, 2 do
  local blog = id_bytes(rows[i])
  local score = blog and redis.call('ZSCORE', KEYS[1], prefix .. blog)
  if not score or tonumber(score) ~= tonumber(rows[i + 1]) then differ = differ + 1 end
end
return {differ, redis.call('ZCARD', KEYS[2])}
