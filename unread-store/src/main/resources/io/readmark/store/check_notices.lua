-- check_notices.lua: one user's counts.notices against their notice inbox (reconcile); with 'repair', set right.
-- KEYS[1] rm:{u:U}:counts  KEYS[2] rm:{u:U}:floors  KEYS[3] rm:{u:U}:notices (inbox)  KEYS[4] rm:{u:U}:notice-reads
-- ARGV[1] 'check' or 'repair'
-- Returns {} when counts.notices (missing = 0) is the number of inbox entries above both floors without a read mark
-- (notices.lua), else {'wrong-notices', 'notices', found, expected} (after setting it right, in 'repair' mode), or
-- {'wrong-type', key, type, expected type}. O(inbox cap log n).
for i, expected in ipairs({'hash', 'hash', 'zset', 'zset'}) do
  local key_type = type_of(KEYS[i])
  if key_type ~= expected and key_type ~= 'none' then
    return {'wrong-type', ({'counts', 'floors', 'notices', 'notice-reads'})[i], key_type, expected}
  end
end
local unread = count_unread_notices(KEYS[3], KEYS[4], KEYS[2])
local found = redis.call('HGET', KEYS[1], 'notices')
local n = 0
if found then n = integer(found) end
if n == unread and (not found or n > 0) then return {} end
if ARGV[1] == 'repair' then
  if unread > 0 then redis.call('HSET', KEYS[1], 'notices', unread) else redis.call('HDEL', KEYS[1], 'notices') end
end
return {'wrong-notices', 'notices', tostring(found or '0'), tostring(unread)}
