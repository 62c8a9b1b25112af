-- author_field.lua: prepended to check.lua and repair.lua (reconcile).
-- A counts field names an author when it is an id the way the writers write one: a positive decimal long without
-- sign or leading zero. Any other field than total is junk. Values are integers only as plain decimals: Lua's
-- tonumber would also take "0x10", "1e3" and " 7".
local function is_author(field)
  if not string.match(field, '^[1-9]%d*$') then return false end
  return #field < 19 or (#field == 19 and field <= '9223372036854775807')
end

local function integer(value)
  if string.match(value, '^-?%d+$') then return tonumber(value) end
  return nil
end

-- The Redis type of a key: 'none' when it does not exist.
local function type_of(key)
  return redis.call('TYPE', key)['ok']
end
