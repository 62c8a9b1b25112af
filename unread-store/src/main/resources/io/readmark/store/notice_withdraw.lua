-- notice_withdraw.lua: a notice of an audience is withdrawn: unread for nobody, now or after a late publish.
-- KEYS[1] rm:{a:X}:notices  KEYS[2] rm:{a:X}:expiry  KEYS[3] rm:{a:X}:withdrawn  KEYS[4] rm:{a:X}:changes
-- ARGV[1] noticeId  ARGV[2] withdrawnAt ms  ARGV[3] most tombstones kept  ARGV[4] now ms (expired notices are dropped)
-- Returns 1 when the notice was live, else 0.
-- Idempotent: the tombstone keeps its first time (ZADD NX) and ZREM decides whether anything changed. The newest
-- tombstones are kept: a publish older than every kept one would also be beyond the cap of live notices in practice.
local id, withdrawn_at, max_tombstones, now = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
drop_expired(KEYS[1], KEYS[2], now)
redis.call('ZADD', KEYS[3], 'NX', withdrawn_at, id)
local excess = redis.call('ZCARD', KEYS[3]) - max_tombstones
if excess > 0 then redis.call('ZREMRANGEBYRANK', KEYS[3], 0, excess - 1) end
local removed = redis.call('ZREM', KEYS[1], id)
redis.call('HDEL', KEYS[2], id)
if removed == 1 then broadcast(KEYS[4], 'withdrawn ' .. id) end
return removed
