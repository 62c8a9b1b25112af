-- b_read_all.lua (layout B): a user read everything of one author up to a moment: the floor needs A's keys, so an inline
-- user moves there first; then A's a_read_all.
-- KEYS[1] bucket  KEYS[2] z  KEYS[3] h  KEYS[4] live  KEYS[5] changes
-- ARGV[1] userId  ARGV[2] authorId  ARGV[3] read at, seconds since 2020
local value = inline_value(KEYS[1], ARGV[1], KEYS[2], KEYS[3])
if value then promote(KEYS[1], ARGV[1], KEYS[2], KEYS[3], value) end
return a_read_all(KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[2], tonumber(ARGV[3]))
