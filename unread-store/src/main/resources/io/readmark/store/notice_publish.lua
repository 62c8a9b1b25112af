-- notice_publish.lua: a notice is published to an audience, stored once (read diffusion): no per-member work.
-- KEYS[1] rm:{a:X}:notices    sorted set, member noticeId, score publishedAt ms: the live notices
-- KEYS[2] rm:{a:X}:expiry     hash noticeId -> expiresAt ms, for notices that expire
-- KEYS[3] rm:{a:X}:withdrawn  sorted set noticeId -> withdrawnAt ms, tombstones
-- KEYS[4] rm:{a:X}:changes    Pub/Sub channel of the audience
-- ARGV[1] noticeId  ARGV[2] publishedAt ms  ARGV[3] expiresAt ms or '' (none)  ARGV[4] most live notices kept
-- ARGV[5] now ms (expired notices are dropped)
-- Returns 1 when the notice became live, else 0.
-- Idempotent: ZADD NX. Order-independent: a withdraw processed earlier left a tombstone that wins here; a notice
-- already expired, or too old for the newest cap, never becomes live. O(log n + cap) and a few hundred bytes.
local id, published_at, expires_at, cap, now = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local changed = drop_expired(KEYS[1], KEYS[2], now)
local live = 0
if not redis.call('ZSCORE', KEYS[3], id) and (expires_at == '' or tonumber(expires_at) > now)
    and redis.call('ZADD', KEYS[1], 'NX', published_at, id) == 1 then
  live = 1
  if expires_at ~= '' then redis.call('HSET', KEYS[2], id, expires_at) end
  local excess = redis.call('ZCARD', KEYS[1]) - cap
  if excess > 0 then
    local dropped = redis.call('ZRANGE', KEYS[1], 0, excess - 1)
    redis.call('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
    redis.call('HDEL', KEYS[2], unpack(dropped))
    for i = 1, #dropped do
      if dropped[i] == id then live = 0 end
    end
  end
end
if live == 1 then broadcast(KEYS[4], 'published ' .. id) end
return live
