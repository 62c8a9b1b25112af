-- deliver.lua: prepended to the delivery scripts (deliver_one.lua, deliver_many.lua): one published blog becomes
-- unread for one follower, whose seven keys are KEYS[k + 1] to KEYS[k + 7]:
-- KEYS[k+1] rm:{u:U}:unread:A  sorted set, member blogId, score publishedAt (ms)
-- KEYS[k+2] rm:{u:U}:counts    hash, field A -> unread count, field total
-- KEYS[k+3] rm:{u:U}:marks     sorted set of blogIds read or deleted for U (score = when, ms)
-- KEYS[k+4] rm:{u:U}:floors    hash, field A -> ms; nothing of A published at or before it is unread; field mA ->
--                              U<ms> (unfollowed A then) or F<ms> (followed A again then), see unfollow.lua and follow.lua;
--                              field all -> ms, the same for every author (all_read.lua); field seen -> ms, the seen
--                              watermark (inbox_seen.lua)
-- KEYS[k+5] rm:{u:U}:merged    sorted set, every entry of every unread:A once more, member A..blogId as 16 bytes
-- KEYS[k+6] rm:{u:U}:live  KEYS[k+7] rm:{u:U}:changes (notify.lua)
-- post: the published blog, read from the script's ARGV once (post_of).
-- Returns the change of counts[A], and whether U's view changed (for notify.lua: the caller tells U's open streams).
-- The merged index gains what unread:A gains and loses what the cap trims; counts.seen what of either was published at
-- or before the seen watermark (a late delivery of an older post counts as seen).
-- Idempotent: ZADD NX decides whether anything is counted, so a replayed delivery changes nothing.
-- Order-independent: a read, delete, read-all or all-read processed earlier leaves a mark or floor that wins here, and an
-- unfollow processed earlier refuses the author's posts until a later follow, and then those from before it (a big-V
-- chunk made before the unfollow was processed, whatever the post's time).
-- ARGV[1] authorId  ARGV[2] blogId  ARGV[3] publishedAt ms  ARGV[4] most unread kept per (U, A)
-- ARGV[5] the merged member of (A, blogId), 16 bytes (members.lua). The score also stays text, as Redis gets it: Redis
-- 7.0 formats a Lua number argument with printf("%.17g"), a costly call on every delivery.
local function post_of(argv)
  return {author = argv[1], blog = argv[2], score = tonumber(argv[3]), score_text = argv[3], cap = tonumber(argv[4]),
          member = argv[5], membership_field = 'm' .. argv[1]}
end

local function deliver(k, post)
  local author, blog, score = post.author, post.blog, post.score
  local unread, counts, marks, floors, merged = KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4], KEYS[k + 5]
  if redis.call('ZSCORE', marks, blog) then return 0, false end
  local limits = redis.call('HMGET', floors, author, post.membership_field, 'all', 'seen')
  local floor, membership, all_floor, watermark = limits[1], limits[2], limits[3], limits[4]
  if floor and score <= tonumber(floor) then return 0, false end
  if all_floor and score <= tonumber(all_floor) then return 0, false end
  if membership and (string.sub(membership, 1, 1) == 'U' or score <= tonumber(string.sub(membership, 2))) then return 0, false end
  if redis.call('ZADD', unread, 'NX', post.score_text, blog) == 0 then return 0, false end
  redis.call('ZADD', merged, post.score_text, post.member)
  -- counts[A] is ZCARD(unread:A) after every script, so its new value says whether the cap is passed, and ZCARD is
  -- asked only then: the set, not the count, decides what is trimmed.
  local delta, seen_delta = 1, 0
  if watermark and score <= tonumber(watermark) then seen_delta = 1 end
  local excess = 0
  if redis.call('HINCRBY', counts, author, '1') > post.cap then excess = redis.call('ZCARD', unread) - post.cap end
  if excess > 0 then
    -- Keep the newest `cap`; raising the floor keeps a trimmed blog from coming back on replay.
    local dropped = redis.call('ZRANGE', unread, 0, excess - 1, 'WITHSCORES')
    redis.call('ZREMRANGEBYRANK', unread, 0, excess - 1)
    zrem_merged(merged, string.sub(post.member, 1, 8), dropped, 2)
    delta = delta - excess
    adjust_field(counts, author, -excess)
    if watermark then
      for i = 2, #dropped, 2 do
        if tonumber(dropped[i]) <= tonumber(watermark) then seen_delta = seen_delta - 1 end
      end
    end
    local highest = dropped[#dropped]
    if not floor or tonumber(highest) > tonumber(floor) then redis.call('HSET', floors, author, highest) end
  end
  adjust_field(counts, 'total', delta)
  adjust_field(counts, 'seen', seen_delta)
  -- Also when the cap kept the count (the newest blog came in, the oldest went); not when the cap trimmed the blog itself.
  return delta, delta ~= 0 or redis.call('ZSCORE', unread, blog) ~= false
end
