-- check_notices.lua: one user's notices count (h field notices) against their notice inbox, and the audiences hash's copy of the notice
-- floor against the floors (reconcile); with 'repair', set right.
-- KEYS[1] rm:{u:U}:h  KEYS[2] rm:{u:U}:floors  KEYS[3] rm:{u:U}:notices (inbox)  KEYS[4] rm:{u:U}:notice-reads
-- KEYS[5] rm:{u:U}:audiences
-- ARGV[1] 'check' or 'repair'
-- Returns the findings, each four values: {'wrong-notice-floor', '#floor', found, expected} unless audiences.#floor is
-- the larger floor (missing when neither is set), {'wrong-notices', 'notices', found, expected} unless counts.notices
-- (missing = 0) is the number of inbox entries above both floors without a read mark (notices.lua); in 'repair' mode
-- each is set right, a repaired count bumping the state version. Or {'wrong-type', key, type, expected type}. {} when all is well. O(inbox cap log n).
for i, expected in ipairs({'hash', 'hash', 'zset', 'zset', 'hash'}) do
  local key_type = type_of(KEYS[i])
  if key_type ~= expected and key_type ~= 'none' then
    return {'wrong-type', ({'h', 'floors', 'notices', 'notice-reads', 'audiences'})[i], key_type, expected}
  end
end
local findings = {}
local floor = notice_floor(KEYS[2])
local copied = redis.call('HGET', KEYS[5], '#floor')
if (floor > 0 and tonumber(copied or '0') ~= floor) or (floor == 0 and copied) then
  if ARGV[1] == 'repair' then
    if floor > 0 then redis.call('HSET', KEYS[5], '#floor', string.format('%d', floor)) else redis.call('HDEL', KEYS[5], '#floor') end
  end
  findings = {'wrong-notice-floor', '#floor', tostring(copied or '0'), string.format('%d', floor)}
end
local unread = count_unread_notices(KEYS[3], KEYS[4], KEYS[2])
local found = redis.call('HGET', KEYS[1], 'notices')
local n = 0
if found then n = integer(found) end
if n ~= unread or (found and n <= 0) then
  if ARGV[1] == 'repair' then
    if unread > 0 then redis.call('HSET', KEYS[1], 'notices', unread) else redis.call('HDEL', KEYS[1], 'notices') end
    bump_version(KEYS[1]) -- a change the user sees (notify.lua); no stream is told, as for every repaired floor
  end
  for _, v in ipairs({'wrong-notices', 'notices', tostring(found or '0'), tostring(unread)}) do findings[#findings + 1] = v end
end
return findings
