-- all_read.lua: a user read everything of every author published at or before a moment.
-- KEYS[1] rm:{u:U}:floors   KEYS[2] rm:{u:U}:h   KEYS[3] rm:{u:U}:audiences (its #floor: notices.lua)
-- KEYS[4] rm:{u:U}:live  KEYS[5] rm:{u:U}:changes (notify.lua)   KEYS[6] rm:{u:U}:z
-- ARGV[1] readAt (ms)
-- Returns how many blogs stopped being unread.
-- Raises floors.all to readAt (it only moves forward), which keeps every later delivery of an older blog out
-- (deliver.lua). One ZREMRANGEBYSCORE takes every entry that old out of z, then each author's blob is cut where its
-- entries get that old: O(the user's entries), at most the per-user cap. Idempotent: a replay finds nothing left.
-- Tells the user's streams once per author it cleared ('all-read' A), and of the notice floor's move.
local read_at = ARGV[1]
local limits = redis.call('HMGET', KEYS[1], 'all', 'seen')
if not limits[1] or tonumber(read_at) > tonumber(limits[1]) then
  -- The larger notice floor moves exactly when readAt passes it.
  local notice_floor_moved = tonumber(read_at) > notice_floor(KEYS[1])
  redis.call('HSET', KEYS[1], 'all', read_at)
  copy_notice_floor(KEYS[1], KEYS[3])
  if notice_floor_moved then notify(KEYS[2], KEYS[4], KEYS[5], 'notice-read') end
end
local s = second_of(read_at)
local removed = redis.call('ZREMRANGEBYSCORE', KEYS[6], text(-s), '0')
if removed == 0 then return 0 end
local seen = 0
local fields, sets, dels, cleared = redis.call('HGETALL', KEYS[2]), {}, {}, {}
for i = 1, #fields, 2 do
  if is_author_field(fields[i]) then
    local blob = fields[i + 1]
    local from = first_covered(blob, s)
    if from <= #blob / RECORD then
      seen = seen + seen_among(blob, from, #blob / RECORD, limits[2])
      cleared[#cleared + 1] = fields[i]
      if from == 1 then
        dels[#dels + 1] = fields[i]
      else
        sets[#sets + 1] = fields[i]
        sets[#sets + 1] = string.sub(blob, 1, (from - 1) * RECORD)
      end
    end
  end
end
call_batched('HSET', KEYS[2], sets)
call_batched('HDEL', KEYS[2], dels)
adjust_field(KEYS[2], 'total', -removed)
adjust_field(KEYS[2], 'seen', -seen)
for _, author in ipairs(cleared) do notify(KEYS[2], KEYS[4], KEYS[5], 'all-read', author) end
return removed
