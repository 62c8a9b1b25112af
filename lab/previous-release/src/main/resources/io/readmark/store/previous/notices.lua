-- notices.lua: prepended to every script; shared rules of notices.
-- A targeted notice in rm:{u:U}:notices (the inbox, score sentAt ms) is unread iff it has no read mark in
-- rm:{u:U}:notice-reads and its time is after both floors, rm:{u:U}:floors fields notices (NoticesAllRead) and all
-- (AllRead). counts field notices is how many such entries the inbox holds; every script that changes the inbox, the
-- marks or the floors keeps it exact, and deletes a field that reaches zero.

-- The larger of the two floors as a number (0 when neither is set).
local function notice_floor(floors_key)
  local floors = redis.call('HMGET', floors_key, 'notices', 'all')
  local floor = 0
  for i = 1, 2 do
    if floors[i] and tonumber(floors[i]) > floor then floor = tonumber(floors[i]) end
  end
  return floor
end

-- The audiences hash rm:{u:U}:audiences keeps a copy of that floor in its field #floor (no audience name starts
-- with #), so that a counts read has memberships and floor in one reply; absent while neither floor is set.
local function copy_notice_floor(floors_key, audiences_key)
  local floors = redis.call('HMGET', floors_key, 'notices', 'all')
  local larger = nil
  for i = 1, 2 do
    if floors[i] and (not larger or tonumber(floors[i]) > tonumber(larger)) then larger = floors[i] end
  end
  if larger and tonumber(larger) > 0 then redis.call('HSET', audiences_key, '#floor', larger) end
end

-- Whether the inbox entry (id, its score as a number) counts as unread under the floor.
local function notice_unread(reads_key, id, score, floor)
  return score > floor and not redis.call('ZSCORE', reads_key, id)
end

-- How many inbox entries are unread, counted afresh: those above the floors (at most the inbox cap), one ZSCORE each.
local function count_unread_notices(inbox_key, reads_key, floors_key)
  local above = redis.call('ZRANGEBYSCORE', inbox_key, '(' .. notice_floor(floors_key), '+inf')
  local unread = 0
  for i = 1, #above do
    if not redis.call('ZSCORE', reads_key, above[i]) then unread = unread + 1 end
  end
  return unread
end

local function adjust_notices(counts_key, delta)
  if delta ~= 0 and redis.call('HINCRBY', counts_key, 'notices', delta) <= 0 then
    redis.call('HDEL', counts_key, 'notices')
  end
end

-- Drops the audience's notices whose expiry has passed at `now` (ms): at most the audience's cap of notices.
-- Returns how many live notices were dropped.
local function drop_expired(notices_key, expiry_key, now)
  local expiries = redis.call('HGETALL', expiry_key)
  local dropped = 0
  for i = 1, #expiries, 2 do
    if tonumber(expiries[i + 1]) <= now then
      dropped = dropped + redis.call('ZREM', notices_key, expiries[i])
      redis.call('HDEL', expiry_key, expiries[i])
    end
  end
  return dropped
end
