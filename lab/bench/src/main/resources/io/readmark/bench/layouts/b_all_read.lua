-- b_all_read.lua (layout B): a user read everything up to a moment: the floor needs A's keys, so an inline user moves
-- there first; then A's a_all_read.
-- KEYS[1] bucket  KEYS[2] z  KEYS[3] h  KEYS[4] live  KEYS[5] changes
-- ARGV[1] userId  ARGV[2] read at, seconds since 2020
local value = inline_value(KEYS[1], ARGV[1], KEYS[2], KEYS[3])
if value then promote(KEYS[1], ARGV[1], KEYS[2], KEYS[3], value) end
return a_all_read(KEYS[2], KEYS[3], KEYS[4], KEYS[5], tonumber(ARGV[2]))
