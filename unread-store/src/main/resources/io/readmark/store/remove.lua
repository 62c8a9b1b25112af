-- remove.lua: prepended to the removal scripts (remove_one.lua, remove_many.lua): one blog is read by, or deleted
-- for, one user, whose five keys are KEYS[k + 1] to KEYS[k + 5] (deliver.lua's, in the same order):
-- KEYS[k+1] rm:{u:U}:z   KEYS[k+2] rm:{u:U}:h   KEYS[k+3] rm:{u:U}:floors (its field seen: the seen watermark)
-- KEYS[k+4] rm:{u:U}:live  KEYS[k+5] rm:{u:U}:changes (notify.lua)
-- removal: the blog and why, read from the script's ARGV once (removal_of):
-- ARGV[1] authorId  ARGV[2] blogId  ARGV[3] the blogId's 8 bytes (members.lua)  ARGV[4] the tombstone's score:
-- the second of the read or delete + 1  ARGV[5] most tombstones kept per user  ARGV[6] 'read' or 'removed' (deleted),
-- for notify
-- Returns 1 when the blog was unread for the user, else 0.
-- Idempotent: the entry's score decides whether anything is counted. The blog stays as a tombstone either way, so a
-- delivery that arrives later (lagging fan-out, or a replay after a crash) does not make it unread again. An entry
-- unread under another author (a read naming the wrong author) is left alone: blog ids are unique.
local function removal_of(argv)
  return {author = argv[1], blog = argv[2], blog_bytes = argv[3], tombstone = argv[4], max_marks = tonumber(argv[5]),
          kind = argv[6]}
end

local function remove_blog(k, removal)
  local z, h, floors = KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
  local score = redis.call('ZSCORE', z, removal.blog)
  if score and tonumber(score) > 0 then return 0 end
  local removed = 0
  if score then
    local s = -tonumber(score)
    local record = record_of(s, removal.blog_bytes)
    local blob = redis.call('HGET', h, removal.author) or ''
    local at = first_from(blob, record)
    if record_at(blob, at) ~= record then return 0 end
    local left = string.sub(blob, 1, (at - 1) * RECORD) .. string.sub(blob, at * RECORD + 1)
    if #left > 0 then redis.call('HSET', h, removal.author, left) else redis.call('HDEL', h, removal.author) end
    adjust_field(h, 'total', -1)
    if covered(s, redis.call('HGET', floors, 'seen')) then adjust_field(h, 'seen', -1) end
    removed = 1
  end
  redis.call('ZADD', z, removal.tombstone, removal.blog)
  -- The newest tombstones stay: they rank after every unread entry, oldest read first. The total says cheaply when
  -- there may be too many; z's own count of unread entries places the cut, so a drifted total cannot cut an entry.
  local card = redis.call('ZCARD', z)
  if card - tonumber(redis.call('HGET', h, 'total') or '0') > removal.max_marks then
    local unread = redis.call('ZCOUNT', z, '-inf', '0')
    local excess = card - unread - removal.max_marks
    if excess > 0 then redis.call('ZREMRANGEBYRANK', z, unread, unread + excess - 1) end
  end
  return removed
end
