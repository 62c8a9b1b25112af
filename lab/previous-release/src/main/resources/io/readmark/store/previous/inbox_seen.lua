-- inbox_seen.lua: a user saw their inbox at a moment: everything unread published at or before it is seen.
-- KEYS[1] rm:{u:U}:floors   KEYS[2] rm:{u:U}:counts   KEYS[3] rm:{u:U}:merged
-- KEYS[4] rm:{u:U}:live  KEYS[5] rm:{u:U}:changes (notify.lua)
-- ARGV[1] seenAt (ms)
-- Returns 1 when the watermark moved, else 0.
-- The watermark (floors field seen) only moves forward, so a replayed or older InboxSeen changes nothing. counts.seen
-- is then counted again on the merged index (score publishedAt), O(log n): how many unread entries the watermark
-- covers. Every script that adds or removes an entry keeps it exact from then on (counters.lua).
local seen_at = ARGV[1]
local watermark = redis.call('HGET', KEYS[1], 'seen')
if watermark and tonumber(seen_at) <= tonumber(watermark) then return 0 end
redis.call('HSET', KEYS[1], 'seen', seen_at)
local before = tonumber(redis.call('HGET', KEYS[2], 'seen') or '0')
local seen = redis.call('ZCOUNT', KEYS[3], '-inf', seen_at)
if seen > 0 then
  redis.call('HSET', KEYS[2], 'seen', seen)
else
  redis.call('HDEL', KEYS[2], 'seen')
end
-- Only when the unseen count moved: a watermark over nothing unread changes nothing the user sees.
if seen ~= before then notify(KEYS[2], KEYS[4], KEYS[5], 'seen') end
return 1
