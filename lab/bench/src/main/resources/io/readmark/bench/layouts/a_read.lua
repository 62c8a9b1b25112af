-- a_read.lua (layout A): a user read one blog (a_lib.lua's a_read).
-- KEYS[1] z  KEYS[2] h  KEYS[3] live  KEYS[4] changes
-- ARGV[1] authorId  ARGV[2] blogId  ARGV[3] blogId as 8 bytes  ARGV[4] read at, seconds since 2020  ARGV[5] tombstones kept
return a_read(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]))
