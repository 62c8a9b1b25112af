-- deliver.lua: prepended to the delivery scripts (deliver_one.lua, deliver_many.lua): one published blog becomes
-- unread for one follower, whose five keys are KEYS[k + 1] to KEYS[k + 5] (USER_KEYS):
-- KEYS[k+1] rm:{u:U}:z   KEYS[k+2] rm:{u:U}:h   (counters.lua)
-- KEYS[k+3] rm:{u:U}:floors  hash, field A -> ms; nothing of A published at or before it is unread; field mA ->
--                            U<ms> (unfollowed A then) or F<ms> (followed A again then), see unfollow.lua and follow.lua;
--                            field all -> ms, the same for every author (all_read.lua); field trim -> ms, the same,
--                            raised by the per-user cap; field seen -> ms, the seen watermark (inbox_seen.lua)
-- KEYS[k+4] rm:{u:U}:live  KEYS[k+5] rm:{u:U}:changes (notify.lua)
-- ARGV[1] authorId  ARGV[2] blogId  ARGV[3] its second (counters.lua's second_of, computed by the caller)
-- ARGV[4] its record (counters.lua)  ARGV[5] most unread kept per (U, A)  ARGV[6] most unread kept per U
-- Returns the change of total, and whether U's view changed (for notify.lua).
-- Idempotent: ZADD NX decides whether anything is counted (an unread entry or a tombstone of the blog stops it).
-- Order-independent: a read, delete, read-all or all-read processed earlier leaves a tombstone or floor that wins
-- here, and an unfollow processed earlier refuses the author's posts until a later follow, and then those from before
-- it. Floors and entries are compared in seconds, so a floor covers the same entries whichever came first.
-- Past a cap the oldest entries go and a floor rises to the newest of them, so a replay of a trimmed blog stays out.
local function post_of(argv)
  local s = tonumber(argv[3])
  return {author = argv[1], blog = argv[2], second = s, score_text = text(-s), record = argv[4],
          cap = tonumber(argv[5]), user_cap = tonumber(argv[6]), membership_field = 'm' .. argv[1]}
end

-- The user's oldest `excess` entries go (the per-user cap): the last ranks of z's unread entries (z orders a second's
-- entries by blogId as text, records by blogId as a number, so they are matched by record, not cut at a boundary).
-- O(the user's entries): h holds at most user_cap records. Returns how many seen entries went, and the set of records.
local function trim_user(z, h, floors, total, excess, watermark)
  local oldest = redis.call('ZRANGE', z, total - excess, total - 1, 'WITHSCORES')
  redis.call('ZREMRANGEBYRANK', z, total - excess, total - 1)
  local gone, newest, seen = {}, -1, 0
  for i = 1, #oldest, 2 do
    local entry_second = -tonumber(oldest[i + 1])
    gone[record_of(entry_second, id_bytes(oldest[i]))] = true
    if entry_second > newest then newest = entry_second end
    if covered(entry_second, watermark) then seen = seen + 1 end
  end
  local fields, sets, dels = redis.call('HGETALL', h), {}, {}
  for i = 1, #fields, 2 do
    if is_author_field(fields[i]) then
      local blob = fields[i + 1]
      local from = first_where(blob, function(record) return record_second(record) <= newest end)
      local left = {string.sub(blob, 1, (from - 1) * RECORD)}
      for at = from, #blob / RECORD do
        local record = record_at(blob, at)
        if not gone[record] then left[#left + 1] = record end
      end
      left = table.concat(left)
      if #left == 0 then
        dels[#dels + 1] = fields[i]
      elseif #left < #blob then
        sets[#sets + 1] = fields[i]
        sets[#sets + 1] = left
      end
    end
  end
  call_batched('HSET', h, sets)
  call_batched('HDEL', h, dels)
  -- The floor is the newest second that went: a replay of any of them stays out.
  raise_floor(floors, 'trim', text(newest * 1000 + 999), redis.call('HGET', floors, 'trim'))
  return seen, gone
end

local function deliver(k, post)
  local z, h, floors = KEYS[k + 1], KEYS[k + 2], KEYS[k + 3]
  local author, s = post.author, post.second
  local limits = redis.call('HMGET', floors, author, post.membership_field, 'all', 'trim', 'seen')
  local floor, membership, watermark = limits[1], limits[2], limits[5]
  if covered(s, floor) or covered(s, limits[3]) or covered(s, limits[4]) then return 0, false end
  if membership and (string.sub(membership, 1, 1) == 'U' or covered(s, string.sub(membership, 2))) then return 0, false end
  if redis.call('ZADD', z, 'NX', post.score_text, post.blog) == 0 then return 0, false end
  local got = redis.call('HMGET', h, author, 'total')
  local blob = got[1] or ''
  -- The usual post is the author's newest: it goes to the head without a search.
  local at = 1
  if #blob > 0 and before(record_at(blob, 1), post.record) then at = first_from(blob, post.record) end
  blob = string.sub(blob, 1, (at - 1) * RECORD) .. post.record .. string.sub(blob, (at - 1) * RECORD + 1)
  local delta, seen_delta = 1, 0
  if covered(s, watermark) then seen_delta = 1 end
  local count = #blob / RECORD
  local kept = at <= post.cap
  if count > post.cap then
    -- Keep the author's newest `cap`; raising the author's floor keeps a trimmed blog from coming back on replay.
    -- The new entry is counted first: drop_from may drop it again, and a count passing zero is deleted on the way.
    local newest_dropped = record_at(blob, post.cap + 1)
    adjust_field(h, 'total', 1)
    adjust_field(h, 'seen', seen_delta)
    delta = delta - drop_from(z, h, author, blob, post.cap + 1, watermark)
    raise_floor(floors, author, text(record_second(newest_dropped) * 1000 + 999), floor)
  else
    redis.call('HSET', h, author, blob, 'total', text(tonumber(got[2] or '0') + 1))
    adjust_field(h, 'seen', seen_delta)
  end
  if tonumber(got[2] or '0') + delta > post.user_cap then
    -- z's own count of unread entries places the cut, so a drifted total cannot make it cut tombstones.
    local unread = redis.call('ZCOUNT', z, '-inf', '0')
    local excess = unread - post.user_cap
    if excess > 0 then
      local seen, gone = trim_user(z, h, floors, unread, excess, watermark)
      if gone[post.record] then kept = false end
      adjust_field(h, 'seen', -seen)
      adjust_field(h, 'total', -excess)
      delta = delta - excess
    end
  end
  -- Also when a cap kept the count (the newest blog came in, the oldest went); not when a cap trimmed the blog itself.
  return delta, delta ~= 0 or kept
end
