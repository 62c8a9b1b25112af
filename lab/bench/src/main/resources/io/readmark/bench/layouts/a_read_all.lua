-- a_read_all.lua (layout A): a user read everything of one author up to a moment (a_lib.lua's a_read_all).
-- KEYS[1] z  KEYS[2] h  KEYS[3] live  KEYS[4] changes
-- ARGV[1] authorId  ARGV[2] read at, seconds since 2020
return a_read_all(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], tonumber(ARGV[2]))
