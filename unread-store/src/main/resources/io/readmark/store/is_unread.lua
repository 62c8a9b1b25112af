-- is_unread.lua (read-only): whether one blog is unread for a user by one author.
-- KEYS[1] rm:{u:U}:z   KEYS[2] rm:{u:U}:h (counters.lua)
-- ARGV[1] authorId  ARGV[2] blogId
-- Returns 1 when z holds the blog as unread and the author's records hold it, else 0. O(log cap).
local score = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not score or tonumber(score) > 0 then return 0 end
local blob = redis.call('HGET', KEYS[2], ARGV[1])
if not blob then return 0 end
local record = record_of(-tonumber(score), id_bytes(ARGV[2]))
if record_at(blob, first_from(blob, record)) == record then return 1 end
return 0
