-- notices_all_read.lua: every notice published or sent at or before a moment is read (NoticesAllRead, field
-- notices), or everything is (AllRead, field all: its first step all_read.lua raises the same floor).
-- KEYS[1] rm:{u:U}:floors  KEYS[2] rm:{u:U}:notices (inbox)  KEYS[3] rm:{u:U}:notice-reads  KEYS[4] rm:{u:U}:counts
-- KEYS[5] rm:{u:U}:live  KEYS[6] rm:{u:U}:changes (notify.lua)  KEYS[7] rm:{u:U}:audiences
-- ARGV[1] readAt ms  ARGV[2] the floors field: 'notices' or 'all'
-- Returns the change of counts.notices. Tells the user's streams when that changed, or when the floor moved (it may
-- have passed broadcasts, which are counted when read).
-- The floor only moves forward; counts.notices is then counted again over the inbox entries above the floors, at
-- most the inbox cap of them, each looked up in the marks: O(cap log n). Idempotent: a replay counts the same.
-- The larger floor is copied to the audiences hash (field #floor, see notices.lua), which a counts read fetches anyway.
local read_at, field = ARGV[1], ARGV[2]
-- The larger of the two floors moves exactly when readAt passes it.
local floor_moved = tonumber(read_at) > notice_floor(KEYS[1])
local current = redis.call('HGET', KEYS[1], field)
if not current or tonumber(read_at) > tonumber(current) then redis.call('HSET', KEYS[1], field, read_at) end
copy_notice_floor(KEYS[1], KEYS[7])
local unread = count_unread_notices(KEYS[2], KEYS[3], KEYS[1])
local before = tonumber(redis.call('HGET', KEYS[4], 'notices') or '0')
if unread > 0 then
  redis.call('HSET', KEYS[4], 'notices', unread)
else
  redis.call('HDEL', KEYS[4], 'notices')
end
-- Also when the floor moved: broadcasts (everyone's and the audiences') are counted when read, from keys in other
-- slots, so whether it passed one only a read can tell.
if unread ~= before or floor_moved then
  notify(KEYS[4], KEYS[5], KEYS[6], 'notice-read')
end
return unread - before
