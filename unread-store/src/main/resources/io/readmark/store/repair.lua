-- repair.lua: makes one user's records, z and counts agree again (reconcile --repair). Prepended: author_field.lua,
-- members.lua, counters.lua, notify.lua, notices.lua.
-- KEYS[1] rm:{u:U}:h   KEYS[2] rm:{u:U}:z   KEYS[3] rm:{u:U}:floors
-- KEYS[4] rm:{u:U}:live  KEYS[5] rm:{u:U}:changes (notify.lua: 'repaired' when anything changed)
-- ARGV[1] most unread kept per (U, A)  ARGV[2] most unread kept per U
-- Returns {'wrong-type', key} when a key is not the type the data model says (left alone: repairing it would lose
-- data), else {'repaired', fields written, fields deleted, entries dropped}.
-- z decides what is unread, the records whose author: a record is kept when z holds its blog as unread at its second,
-- once (the first author h's order names it under); each author's records are sorted newest first; an entry no record
-- names is dropped from z (its author is unknown), as is a record z does not hold. Past a cap the oldest go the way
-- deliver.lua trims, raising a floor so they do not come back on a replay. Then total and seen are counted again
-- and junk fields deleted (notices is check_notices.lua's). O(the user's entries).
local cap, user_cap = tonumber(ARGV[1]), tonumber(ARGV[2])
for i, expected in ipairs({'hash', 'zset', 'hash'}) do
  local key_type = type_of(KEYS[i])
  if key_type ~= expected and key_type ~= 'none' then return {'wrong-type', ({'h', 'z', 'floors'})[i]} end
end
local h, z, floors = KEYS[1], KEYS[2], KEYS[3]
local unread = {}
local entries = redis.call('ZRANGEBYSCORE', z, '-inf', '0', 'WITHSCORES')
for i = 1, #entries, 2 do unread[entries[i]] = -tonumber(entries[i + 1]) end
local fields = redis.call('HGETALL', h)
local value_of, kept, authors = {}, {}, {}
for i = 1, #fields, 2 do
  local field, value = fields[i], fields[i + 1]
  value_of[field] = value
  if is_author(field) then
    for at = 1, math.floor(#value / RECORD) do
      local record = record_at(value, at)
      local blog = id_decimal(string.sub(record, 5))
      if unread[blog] == record_second(record) and not kept[blog] then
        kept[blog] = {author = field, record = record}
      end
    end
  end
end
-- Each author's kept records, newest first; z's entries no record names go.
local stray = {}
for blog in pairs(unread) do
  if not kept[blog] then stray[#stray + 1] = blog end
end
for blog, entry in pairs(kept) do
  authors[entry.author] = authors[entry.author] or {}
  table.insert(authors[entry.author], entry.record)
end
local dropped = #stray
call_batched('ZREM', z, stray)
local all = {}
for author, records in pairs(authors) do
  table.sort(records, before)
  if #records > cap then
    -- The oldest go, and the author's floor rises to the newest of them.
    local gone = {}
    for at = cap + 1, #records do gone[#gone + 1] = id_decimal(string.sub(records[at], 5)) end
    call_batched('ZREM', z, gone)
    dropped = dropped + #gone
    raise_floor(floors, author, text(record_second(records[cap + 1]) * 1000 + 999), redis.call('HGET', floors, author))
    for at = #records, cap + 1, -1 do records[at] = nil end
  end
  for _, record in ipairs(records) do
    all[#all + 1] = {record = record, second = record_second(record), blog = id_decimal(string.sub(record, 5))}
  end
end
if #all > user_cap then
  -- The user's oldest go: z's order, newest second first and then blogId as text (its bytes, as Redis compares).
  table.sort(all, function(a, b)
    if a.second ~= b.second then return a.second > b.second end
    return bytes_before(a.blog, b.blog)
  end)
  local newest, gone, blogs = -1, {}, {}
  for i = user_cap + 1, #all do
    gone[all[i].record] = true
    blogs[#blogs + 1] = all[i].blog
    if all[i].second > newest then newest = all[i].second end
  end
  call_batched('ZREM', z, blogs)
  dropped = dropped + #blogs
  -- One pass over each author's records, whatever went: O(the user's entries).
  for author, records in pairs(authors) do
    local left = {}
    for _, record in ipairs(records) do
      if not gone[record] then left[#left + 1] = record end
    end
    authors[author] = left
  end
  raise_floor(floors, 'trim', text(newest * 1000 + 999), redis.call('HGET', floors, 'trim'))
end
-- The fields h should hold, against what it holds.
local want, total, seen = {}, 0, 0
local watermark = redis.call('HGET', floors, 'seen')
for author, records in pairs(authors) do
  if #records > 0 then
    want[author] = table.concat(records)
    total = total + #records
    for _, record in ipairs(records) do
      if watermark and record_second(record) <= second_of(watermark) then seen = seen + 1 end
    end
  end
end
if total > 0 then want['total'] = text(total) end
if seen > 0 then want['seen'] = text(seen) end
local sets, dels = {}, {}
for field, value in pairs(want) do
  if value_of[field] ~= value then
    sets[#sets + 1] = field
    sets[#sets + 1] = value
  end
end
for field in pairs(value_of) do
  if want[field] == nil and field ~= 'notices' and field ~= 'v' then dels[#dels + 1] = field end
end
call_batched('HSET', h, sets)
call_batched('HDEL', h, dels)
if #sets > 0 or #dels > 0 or dropped > 0 then notify(h, KEYS[4], KEYS[5], 'repaired') end
return {'repaired', #sets / 2, #dels, dropped}
