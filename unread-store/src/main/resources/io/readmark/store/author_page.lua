-- author_page.lua (read-only): one page of a user's unread blogs by one author, newest first.
-- KEYS[1] rm:{u:U}:h (counters.lua)
-- ARGV[1] authorId  ARGV[2] n: how many entries to return (page size + 1, so the caller knows whether a page follows)
-- ARGV[3], ARGV[4] (after a cursor only) the cursor's second and blogId
-- Returns a flat list: blogId, second, ... — the n records after the cursor in the blob's order (newest second first,
-- then blogId ascending). One HGET and one binary search: O(log cap + n).
local blob = redis.call('HGET', KEYS[1], ARGV[1])
if not blob then return {} end
local start = 1
if ARGV[3] then
  local cursor = record_of(tonumber(ARGV[3]), id_bytes(ARGV[4]))
  start = first_where(blob, function(record) return before(cursor, record) end)
end
local reply = {}
for i = start, math.min(#blob / RECORD, start + tonumber(ARGV[2]) - 1) do
  local record = record_at(blob, i)
  reply[#reply + 1] = id_decimal(string.sub(record, 5))
  reply[#reply + 1] = text(record_second(record))
end
return reply
