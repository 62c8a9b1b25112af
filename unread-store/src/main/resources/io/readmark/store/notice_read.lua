-- notice_read.lua: a user read a notice, broadcast or targeted.
-- KEYS[1] rm:{u:U}:notice-reads  KEYS[2] rm:{u:U}:notices (inbox)  KEYS[3] rm:{u:U}:counts  KEYS[4] rm:{u:U}:floors
-- KEYS[5] rm:{u:U}:live  KEYS[6] rm:{u:U}:changes (notify.lua)
-- ARGV[1] noticeId  ARGV[2] readAt ms  ARGV[3] most read marks kept
-- Returns 1 when the mark is new, else 0.
-- Idempotent: the mark keeps its first time (ZADD NX). Order-independent: the mark is kept whether or not the notice
-- arrived yet, so a later broadcast or send of it stays read. The newest marks are kept; an inbox entry whose mark is
-- trimmed is unread again and counted so (counts stay exact).
local id, read_at, max_reads = ARGV[1], ARGV[2], tonumber(ARGV[3])
if redis.call('ZADD', KEYS[1], 'NX', read_at, id) == 0 then return 0 end
local floor = notice_floor(KEYS[4])
local delta = 0
local score = redis.call('ZSCORE', KEYS[2], id)
if score and tonumber(score) > floor then delta = -1 end
local excess = redis.call('ZCARD', KEYS[1]) - max_reads
if excess > 0 then
  local dropped = redis.call('ZRANGE', KEYS[1], 0, excess - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
  for i = 1, #dropped do
    local sent = redis.call('ZSCORE', KEYS[2], dropped[i])
    if sent and tonumber(sent) > floor then delta = delta + 1 end
  end
end
adjust_notices(KEYS[3], delta)
notify(KEYS[5], KEYS[6], 'notice-read', id)
return 1
