-- a_all_read.lua (layout A): a user read everything up to a moment (a_lib.lua's a_all_read).
-- KEYS[1] z  KEYS[2] h  KEYS[3] live  KEYS[4] changes
-- ARGV[1] read at, seconds since 2020
return a_all_read(KEYS[1], KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[1]))
