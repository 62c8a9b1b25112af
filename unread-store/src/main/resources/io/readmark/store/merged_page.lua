-- merged_page.lua (read-only): one page of a user's unread across all authors, newest first.
-- KEYS[1] rm:{u:U}:z   KEYS[2] rm:{u:U}:h (counters.lua)
-- ARGV[1] n: how many entries to return (page size + 1, so the caller knows whether a page follows)
-- ARGV[2], ARGV[3] (after a cursor only) the cursor's second and blogId
-- Returns a flat list: blogId, second, authorId, ... — the n entries after the cursor in z's order: newest second
-- first, a second's entries by blogId as text (Redis orders a score's members by their bytes). Work: the page's
-- ranks, O(log N) each, then one HGETALL of h to find the entries' authors: O(the user's entries), which the
-- per-user cap bounds.
local z, h, n = KEYS[1], KEYS[2], tonumber(ARGV[1])

local start = 0
if ARGV[2] then
  local score, member = text(-tonumber(ARGV[2])), ARGV[3]
  local found = redis.call('ZSCORE', z, member)
  if found and tonumber(found) == tonumber(score) then
    start = redis.call('ZRANK', z, member) + 1
  else
    -- The cursor's entry is gone (read meanwhile): the first rank of its score's run whose member is above it.
    local low = redis.call('ZCOUNT', z, '-inf', '(' .. score)
    local high = low + redis.call('ZCOUNT', z, score, score)
    while low < high do
      local middle = math.floor((low + high) / 2)
      if bytes_before(member, redis.call('ZRANGE', z, middle, middle)[1]) then high = middle else low = middle + 1 end
    end
    start = low
  end
end
local rows = redis.call('ZRANGE', z, start, start + n - 1, 'WITHSCORES')
local wanted, reply, missing = {}, {}, 0
for i = 1, #rows, 2 do
  if tonumber(rows[i + 1]) > 0 then break end -- tombstones rank after every entry
  local s = -tonumber(rows[i + 1])
  reply[#reply + 1] = rows[i]
  reply[#reply + 1] = text(s)
  reply[#reply + 1] = false
  wanted[record_of(s, id_bytes(rows[i]))] = #reply
  missing = missing + 1
end
if missing == 0 then return reply end
local fields = redis.call('HGETALL', h)
for i = 1, #fields, 2 do
  if is_author_field(fields[i]) then
    local blob = fields[i + 1]
    for at = 1, #blob, RECORD do
      local slot = wanted[string.sub(blob, at, at + RECORD - 1)]
      if slot then
        reply[slot] = fields[i]
        missing = missing - 1
        if missing == 0 then return reply end
      end
    end
  end
end
return reply
