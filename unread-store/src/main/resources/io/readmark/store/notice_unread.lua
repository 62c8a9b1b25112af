-- notice_unread.lua: which of some broadcasts a user has unread, read-only (the counts read, NoticeReader).
-- KEYS[1] rm:{u:U}:audiences  KEYS[2] rm:{u:U}:notice-reads  KEYS[3] rm:{u:U}:floors
-- ARGV[1] the audience every user is in; then triples: audience, noticeId, publishedAt ms (live, not expired)
-- Returns {the audiences hash as a flat list, the unread noticeIds}: a notice is unread when the user joined its audience
-- (J<ms>, or the everyone audience) before it was published, it is after both floors, and it has no read mark. The
-- caller checks the memberships against the audiences it sent, and asks again when they differ. One ZSCORE per
-- notice sent: at most the caller's bound (65 audiences x their cap).
local members = redis.call('HGETALL', KEYS[1])
local since = {[ARGV[1]] = 0}
for i = 1, #members, 2 do
  local value = members[i + 1]
  if string.sub(value, 1, 1) == 'J' then since[members[i]] = tonumber(string.sub(value, 2)) end
end
local floor = 0
local floors = redis.call('HMGET', KEYS[3], 'notices', 'all')
for i = 1, 2 do
  if floors[i] and tonumber(floors[i]) > floor then floor = tonumber(floors[i]) end
end
local unread = {}
for i = 2, #ARGV, 3 do
  local joined_at, published_at = since[ARGV[i]], tonumber(ARGV[i + 2])
  if joined_at and published_at > joined_at and published_at > floor and not redis.call('ZSCORE', KEYS[2], ARGV[i + 1]) then
    unread[#unread + 1] = ARGV[i + 1]
  end
end
return {members, unread}
