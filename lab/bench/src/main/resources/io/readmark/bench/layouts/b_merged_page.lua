-- b_merged_page.lua (layout B, read-only): the page across authors, inline or A's a_merged_page, in the same order
-- ((score, member) ascending, score = -seconds) and reply format ({blogId, score, authorId, ...}), so a cursor stays
-- good when the user moves to A between two pages.
-- KEYS[1] bucket  KEYS[2] z  KEYS[3] h
-- ARGV[1] userId  ARGV[2] entries wanted  ARGV[3], ARGV[4] (after a cursor only) its score and member
local value = inline_for_read(KEYS[1], ARGV[1], KEYS[3])
if not value then return a_merged_page(KEYS[2], KEYS[3], tonumber(ARGV[2]), ARGV[3], ARGV[4]) end
local rows = {}
for _, entry in ipairs(inline_entries(value)) do
  rows[#rows + 1] = {score = -struct.unpack('>I4', entry.record), member = id_decimal(string.sub(entry.record, 5, 12)),
                     author = entry.author_bytes}
end
local function before(a, b)
  if a.score ~= b.score then return a.score < b.score end
  return bytes_before(a.member, b.member)
end
table.sort(rows, before)
local cursor = nil
if ARGV[3] then cursor = {score = tonumber(ARGV[3]), member = ARGV[4]} end
local reply, wanted = {}, tonumber(ARGV[2])
for _, row in ipairs(rows) do
  if #reply / 3 == wanted then break end
  if not cursor or before(cursor, row) then
    reply[#reply + 1] = row.member
    reply[#reply + 1] = text(row.score)
    reply[#reply + 1] = id_decimal(row.author)
  end
end
return reply
