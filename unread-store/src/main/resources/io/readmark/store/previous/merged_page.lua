-- merged_page.lua (read-only): one page of a user's unread across all authors, newest first.
-- KEYS[1] rm:{u:U}:merged   sorted set, member authorId..blogId as 16 big-endian bytes, score publishedAt (ms)
-- ARGV[1] n: how many entries to return (page size + 1, so the caller knows whether a page follows)
-- ARGV[2], ARGV[3] (after a cursor only) the cursor's publishedAt (ms) and its member as 32 hex digits
-- Returns a flat list: member as 32 hex digits, score, ... — the n entries after the cursor in ZREVRANGE order,
-- which is (publishedAt, authorId, blogId) descending: equal scores are ordered by member bytes, and those are the
-- ids' numeric order. Work: O(log^2 N + n) for N entries, whatever the number of authors or of equal scores.
local key, n = KEYS[1], tonumber(ARGV[1])

-- a < b as bytes (memcmp, then the shorter first), as Redis orders members: Lua's own < follows the locale.
local function before(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local start = 0
if ARGV[2] then
  local score = ARGV[2]
  local member = string.gsub(ARGV[3], '%x%x', function(pair) return string.char(tonumber(pair, 16)) end)
  local found = redis.call('ZSCORE', key, member)
  if found and tonumber(found) == tonumber(score) then
    start = redis.call('ZREVRANK', key, member) + 1
  else
    -- The cursor's entry is gone (read meanwhile): the first rank of the run whose member is below it, by binary
    -- search over ranks, O(log run) probes of O(log N) each. Entries above the cursor's score come first, then the
    -- run of its score, by member descending.
    local low = redis.call('ZCOUNT', key, '(' .. score, '+inf')
    local high = low + redis.call('ZCOUNT', key, score, score)
    while low < high do
      local middle = math.floor((low + high) / 2)
      if before(redis.call('ZREVRANGE', key, middle, middle)[1], member) then
        high = middle
      else
        low = middle + 1
      end
    end
    start = low
  end
end
local rows = redis.call('ZREVRANGE', key, start, start + n - 1, 'WITHSCORES')
for i = 1, #rows, 2 do rows[i] = hex(rows[i]) end
return rows
