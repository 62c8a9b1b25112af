-- counters.lua: prepended to every script that changes unread entries.
-- Adds delta to counts[author] and counts.total in the same script as the set change, and deletes a field that
-- reaches zero, so that counts[author] == ZCARD(unread) and total == sum(counts[author]) hold after every script.
local function adjust_counts(counts_key, author, delta)
  if delta == 0 then return end
  if redis.call('HINCRBY', counts_key, author, delta) <= 0 then redis.call('HDEL', counts_key, author) end
  if redis.call('HINCRBY', counts_key, 'total', delta) <= 0 then redis.call('HDEL', counts_key, 'total') end
end
