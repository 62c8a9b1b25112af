-- counts.lua (read-only): a user's counts, shaped as the reply of HSCAN 0 of a hash of counts.
-- KEYS[1] rm:{u:U}:h (counters.lua)
-- Returns {'0', {field, value, ...}}: each author field with its number of records, and total, seen, notices, v as
-- they are. One HGETALL: h holds at most the per-user cap of records and one field per author with unread, so the
-- work is bounded by that cap; the records are counted, never sent.
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if string.match(fields[i], '^[1-9]%d*$') then fields[i + 1] = string.format('%d', #fields[i + 1] / 12) end
end
return {'0', fields}
