-- merged_page.lua (read-only): the candidates of one page of a user's unread across authors, newest first.
-- KEYS[i] rm:{u:U}:unread:A for every author A with unread (one user's keys, one slot)
-- ARGV[1] highest score to read: the cursor's publishedAt (ms), inclusive, or +inf for the first page
-- ARGV[2] n: how many entries below that score each author must supply (page size + 1)
-- Returns per key a flat list member, score, ...: every entry at ARGV[1] (the caller drops those at or before its
-- cursor), the next n entries, and every entry sharing the lowest score returned. The caller orders equal scores
-- by blogId, Redis by member text ("9" > "10"), so each list must hold all of its lowest score to be a prefix of
-- that author's entries in the caller's order, whatever order Redis returned them in.
local max, n = ARGV[1], tonumber(ARGV[2])
local lists = {}
for i, key in ipairs(KEYS) do
  local wanted = redis.call('ZCOUNT', key, max, max) + n
  local rows = redis.call('ZREVRANGEBYSCORE', key, max, '-inf', 'WITHSCORES', 'LIMIT', 0, wanted)
  if #rows == 2 * wanted then
    local last = rows[#rows]
    while #rows > 0 and rows[#rows] == last do
      rows[#rows] = nil
      rows[#rows] = nil
    end
    for _, value in ipairs(redis.call('ZRANGEBYSCORE', key, last, last, 'WITHSCORES')) do rows[#rows + 1] = value end
  end
  lists[i] = rows
end
return lists
