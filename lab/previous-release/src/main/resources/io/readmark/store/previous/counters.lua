-- counters.lua: prepended to every script that changes unread entries.
-- Adds delta to counts[author] and counts.total in the same script as the set change, and deletes a field that
-- reaches zero, so that counts[author] == ZCARD(unread) and total == sum(counts[author]) hold after every script.
-- counts.seen is how many unread entries were published at or before the user's seen watermark (floors field seen,
-- set by inbox_seen.lua): unseen = total - seen. Kept as the seen part, not the unseen one, so that a user without a
-- watermark has no such field and a delivery after the watermark (almost every delivery) writes nothing more.

-- Adds delta to one field of a counts hash, deleting the field when it reaches zero. The delta goes as text: Redis 7.0
-- formats a Lua number argument with printf("%.17g"), a costly call on every delivery.
local function adjust_field(counts_key, field, delta)
  if delta ~= 0 and redis.call('HINCRBY', counts_key, field, string.format('%d', delta)) <= 0 then
    redis.call('HDEL', counts_key, field)
  end
end

local function adjust_counts(counts_key, author, delta, seen_delta)
  adjust_field(counts_key, author, delta)
  adjust_field(counts_key, 'total', delta)
  adjust_field(counts_key, 'seen', seen_delta)
end

-- How many entries of a sorted set published at or before `through` (ms as a string; nil for all of them) are seen
-- under the watermark (a string, or false when the user has none): one ZCOUNT, O(log n).
local function seen_through(key, through, watermark)
  if not watermark then return 0 end
  local upper = watermark
  if through and tonumber(through) < tonumber(watermark) then upper = through end
  return redis.call('ZCOUNT', key, '-inf', upper)
end

-- Removes the entries of unread:A published at or before read_at, from the set and the merged index, with their
-- counts: at most the per-author cap of entries. Returns how many were removed.
local function remove_through(unread_key, counts_key, merged_key, author, read_at, author_prefix, watermark)
  local dropped = redis.call('ZRANGEBYSCORE', unread_key, '-inf', read_at)
  if #dropped == 0 then return 0 end
  local seen = seen_through(unread_key, read_at, watermark)
  redis.call('ZREMRANGEBYSCORE', unread_key, '-inf', read_at)
  zrem_merged(merged_key, author_prefix, dropped, 1)
  adjust_counts(counts_key, author, -#dropped, -seen)
  return #dropped
end
