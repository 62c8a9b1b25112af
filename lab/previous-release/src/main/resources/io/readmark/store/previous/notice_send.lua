-- notice_send.lua: a targeted notice lands in one recipient's inbox (write diffusion).
-- KEYS[1] rm:{u:U}:notices       sorted set, the inbox: member noticeId, score sentAt ms (read ones stay)
-- KEYS[2] rm:{u:U}:counts        field notices: unread entries of the inbox (notices.lua)
-- KEYS[3] rm:{u:U}:notice-reads  sorted set noticeId -> readAt ms
-- KEYS[4] rm:{u:U}:floors        fields notices and all
-- KEYS[5] rm:{u:U}:live  KEYS[6] rm:{u:U}:changes (notify.lua)
-- ARGV[1] noticeId  ARGV[2] sentAt ms  ARGV[3] most inbox entries kept
-- Returns the change of counts.notices.
-- Idempotent: ZADD NX decides whether anything is counted. Order-independent: a read or a floor processed earlier
-- keeps the entry read. Beyond the cap the oldest entries go, with their unread counted off; a replayed old send is
-- added and trimmed again, so it changes nothing.
local id, sent_at, cap = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
if redis.call('ZADD', KEYS[1], 'NX', sent_at, id) == 0 then return 0 end
local floor = notice_floor(KEYS[4])
local delta = 0
if notice_unread(KEYS[3], id, sent_at, floor) then delta = 1 end
local added_unread = delta == 1
local excess = redis.call('ZCARD', KEYS[1]) - cap
if excess > 0 then
  local dropped = redis.call('ZRANGE', KEYS[1], 0, excess - 1, 'WITHSCORES')
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
  for i = 1, #dropped, 2 do
    if notice_unread(KEYS[3], dropped[i], tonumber(dropped[i + 1]), floor) then delta = delta - 1 end
    if dropped[i] == id then added_unread = false end
  end
end
adjust_notices(KEYS[2], delta)
if added_unread then
  notify(KEYS[2], KEYS[5], KEYS[6], 'notice', id)
elseif delta ~= 0 then
  -- a notice sent read pushed an unread one past the cap: the count fell
  notify(KEYS[2], KEYS[5], KEYS[6], 'notice-dropped')
end
return delta
