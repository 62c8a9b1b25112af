-- remove.lua: prepended to the removal scripts (remove_one.lua, remove_many.lua): one blog is read by, or deleted
-- for, one user, whose seven keys are KEYS[k + 1] to KEYS[k + 7]:
-- KEYS[k+1] rm:{u:U}:unread:A   KEYS[k+2] rm:{u:U}:counts   KEYS[k+3] rm:{u:U}:marks
-- KEYS[k+4] rm:{u:U}:floors (its field seen: the seen watermark)   KEYS[k+5] rm:{u:U}:merged
-- KEYS[k+6] rm:{u:U}:live  KEYS[k+7] rm:{u:U}:changes (notify.lua)
-- (deliver.lua's seven keys, in the same order)
-- removal: the blog and why, read from the script's ARGV once (removal_of):
-- ARGV[1] authorId  ARGV[2] blogId  ARGV[3] when (ms)  ARGV[4] most marks kept per user
-- ARGV[5] the merged member of (A, blogId), 16 bytes (members.lua)  ARGV[6] 'read' or 'removed' (deleted), for notify
-- Returns 1 when the blog was unread for the user, else 0.
-- Idempotent: ZREM decides whether anything is counted. The mark is kept either way, so a delivery that arrives
-- later (lagging fan-out, or a replay after a crash) does not make the blog unread again.
local function removal_of(argv)
  return {author = argv[1], blog = argv[2], at = argv[3], max_marks = tonumber(argv[4]), member = argv[5], kind = argv[6]}
end

local function remove_blog(k, removal)
  local unread, counts, marks, floors, merged = KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4], KEYS[k + 5]
  local score = redis.call('ZSCORE', unread, removal.blog)
  local removed, seen = 0, 0
  if score then
    removed = redis.call('ZREM', unread, removal.blog)
    local watermark = redis.call('HGET', floors, 'seen')
    if watermark and tonumber(score) <= tonumber(watermark) then seen = 1 end
  end
  redis.call('ZREM', merged, removal.member)
  redis.call('ZADD', marks, removal.at, removal.blog)
  local excess = redis.call('ZCARD', marks) - removal.max_marks
  if excess > 0 then redis.call('ZREMRANGEBYRANK', marks, 0, excess - 1) end
  adjust_counts(counts, removal.author, -removed, -seen)
  return removed
end
