-- notice_read.lua: a user read a notice, broadcast or targeted.
-- KEYS[1] rm:{u:U}:notice-reads  KEYS[2] rm:{u:U}:notices (inbox)  KEYS[3] rm:{u:U}:h  KEYS[4] rm:{u:U}:floors
-- KEYS[5] rm:{u:U}:live  KEYS[6] rm:{u:U}:changes (notify.lua)  KEYS[7] rm:{u:U}:audiences (its field #reads)
-- ARGV[1] noticeId  ARGV[2] readAt ms  ARGV[3] most read marks kept
-- Returns 1 when the mark is new, else 0.
-- Idempotent: the mark keeps its first time (ZADD NX). Order-independent: the mark is kept whether or not the notice
-- arrived yet, so a later broadcast or send of it stays read. The newest marks are kept; an inbox entry whose mark is
-- trimmed is unread again and counted so (counts stay exact). The only script that changes the marks: it stamps the
-- audiences hash's field #reads with a value no earlier state had, so that a reader that kept marks (with the stamp
-- it read before them) knows when to ask again: Redis's clock in microseconds, then a count one past the stamp's
-- before (unique while the hash lasts; the clock, should it be deleted). Never an audience's J or L value.
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
local stamp = redis.call('HGET', KEYS[7], '#reads')
local changes = stamp and tonumber(string.match(stamp, '%.(%d+)$')) or 0
local now = redis.call('TIME')
redis.call('HSET', KEYS[7], '#reads', now[1] .. string.format('%06d', tonumber(now[2])) .. '.' .. (changes + 1))
adjust_notices(KEYS[3], delta)
notify(KEYS[3], KEYS[5], KEYS[6], 'notice-read', id)
return 1
