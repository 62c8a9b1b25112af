-- all_read.lua: a user read everything of every author published at or before a moment.
-- KEYS[1] rm:{u:U}:floors   KEYS[2] rm:{u:U}:counts   KEYS[3] rm:{u:U}:audiences (its #floor: notices.lua)
-- KEYS[4] rm:{u:U}:live  KEYS[5] rm:{u:U}:changes (notify.lua: the notice floor's move, which may have passed broadcast
-- notices, is told here; each author's removal by all_read_author.lua)
-- ARGV[1] readAt (ms)  ARGV[2] HSCAN cursor of counts ('0' on the first call)  ARGV[3] HSCAN COUNT
-- Returns {next cursor, field, ...}: the next fields of counts, author fields and others alike. The caller removes
-- each author's unread up to readAt (all_read_author.lua: key names are built by the caller, never here) and calls
-- again with the next cursor until it is '0'.
-- Raises floors.all to readAt (it only moves forward), which keeps every later delivery of an older blog out
-- (deliver.lua), so authors that gain unread during the scan gain only newer blogs. Each call is bounded by COUNT
-- (or by the small encoding's size); the whole all-read is O(authors with unread + entries removed). Idempotent: a
-- replay raises nothing and scans again, and the removals find what is left.
local read_at, cursor = ARGV[1], ARGV[2]
local floor = redis.call('HGET', KEYS[1], 'all')
if not floor or tonumber(read_at) > tonumber(floor) then
  -- The larger notice floor moves exactly when readAt passes it.
  local notice_floor_moved = tonumber(read_at) > notice_floor(KEYS[1])
  redis.call('HSET', KEYS[1], 'all', read_at)
  copy_notice_floor(KEYS[1], KEYS[3])
  if notice_floor_moved then notify(KEYS[2], KEYS[4], KEYS[5], 'notice-read') end
end
local reply = redis.call('HSCAN', KEYS[2], cursor, 'COUNT', ARGV[3])
local found = {reply[1]}
for i = 1, #reply[2], 2 do found[#found + 1] = reply[2][i] end
return found
