-- repair.lua: makes one user's records, z and counts agree again (reconcile --repair). Prepended: author_field.lua,
-- members.lua, counters.lua, notify.lua, notices.lua.
-- KEYS[1] rm:{u:U}:h   KEYS[2] rm:{u:U}:z   KEYS[3] rm:{u:U}:floors
-- KEYS[4] rm:{u:U}:live  KEYS[5] rm:{u:U}:changes (notify.lua: 'repaired' when anything changed)
-- ARGV[1] most unread kept per (U, A)  ARGV[2] most unread kept per U
-- Returns {'wrong-type', key} when a key is not the type the data model says (left alone: repairing it would lose
-- data), else {'repaired', fields written, fields deleted, entries dropped}.
-- z decides what is unread, the records whose author: a record is kept when z holds its blog as unread at its second,
-- once (the newest author's when two name it); each author's records are sorted newest first; an entry no record
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
for i = 1, #stray, 1000 do redis.call('ZREM', z, unpack(stray, i, math.min(#stray, i + 999))) end
local all = {}
for author, records in pairs(authors) do
  table.sort(records, before)
  if #records > cap then
    -- The oldest go, and the author's floor rises to the newest of them.
    for at = cap + 1, #records do
      redis.call('ZREM', z, id_decimal(string.sub(records[at], 5)))
      dropped = dropped + 1
    end
    raise_floor(floors, author, text(record_second(records[cap + 1]) * 1000 + 999), redis.call('HGET', floors, author))
    for at = #records, cap + 1, -1 do records[at] = nil end
  end
  for _, record in ipairs(records) do all[#all + 1] = {author = author, record = record} end
end
if #all > user_cap then
  -- The user's oldest go: z's order, newest second first and then blogId as text.
  table.sort(all, function(a, b)
    local sa, sb = record_second(a.record), record_second(b.record)
    if sa ~= sb then return sa > sb end
    return id_decimal(string.sub(a.record, 5)) < id_decimal(string.sub(b.record, 5))
  end)
  local newest = -1
  for i = user_cap + 1, #all do
    local record = all[i].record
    redis.call('ZREM', z, id_decimal(string.sub(record, 5)))
    if record_second(record) > newest then newest = record_second(record) end
    local records = authors[all[i].author]
    for at = #records, 1, -1 do
      if records[at] == record then table.remove(records, at) end
    end
    dropped = dropped + 1
  end
  raise_floor(floors, 'trim', text(newest * 1000 + 999), redis.call('HGET', floors, 'trim'))
  for i = #all, user_cap + 1, -1 do all[i] = nil end
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
if #sets > 0 then redis.call('HSET', h, unpack(sets)) end
if #dels > 0 then redis.call('HDEL', h, unpack(dels)) end
if #sets > 0 or #dels > 0 or dropped > 0 then notify(h, KEYS[4], KEYS[5], 'repaired') end
return {'repaired', #sets / 2, #dels, dropped}
