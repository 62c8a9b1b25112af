-- remove.lua: one blog is read by, or deleted for, one user.
-- KEYS[1] rm:{u:U}:unread:A   KEYS[2] rm:{u:U}:counts   KEYS[3] rm:{u:U}:marks   KEYS[4] rm:{u:U}:merged
-- KEYS[5] rm:{u:U}:floors (its field seen: the seen watermark)
-- ARGV[1] authorId  ARGV[2] blogId  ARGV[3] when (ms)  ARGV[4] most marks kept per user
-- ARGV[5] the merged member of (A, blogId), 16 bytes (members.lua)  ARGV[6] 'read' or 'removed' (deleted), for notify
-- KEYS[6] rm:{u:U}:live  KEYS[7] rm:{u:U}:changes (notify.lua)
-- Returns 1 when the blog was unread, else 0.
-- Idempotent: ZREM decides whether anything is counted. The mark is kept either way, so a delivery that arrives
-- later (lagging fan-out, or a replay after a crash) does not make the blog unread again.
local author, blog, at, max_marks = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local score = redis.call('ZSCORE', KEYS[1], blog)
local removed, seen = 0, 0
if score then
  removed = redis.call('ZREM', KEYS[1], blog)
  local watermark = redis.call('HGET', KEYS[5], 'seen')
  if watermark and tonumber(score) <= tonumber(watermark) then seen = 1 end
end
redis.call('ZREM', KEYS[4], ARGV[5])
redis.call('ZADD', KEYS[3], at, blog)
local excess = redis.call('ZCARD', KEYS[3]) - max_marks
if excess > 0 then redis.call('ZREMRANGEBYRANK', KEYS[3], 0, excess - 1) end
adjust_counts(KEYS[2], author, -removed, -seen)
if removed == 1 then notify(KEYS[6], KEYS[7], ARGV[6], author, blog) end
return removed
