-- a_deliver.lua (layout A): one published blog becomes unread for one user (a_lib.lua's a_deliver).
-- KEYS[1] z  KEYS[2] h  KEYS[3] live  KEYS[4] changes (the product's notify.lua)
-- ARGV[1] authorId  ARGV[2] blogId  ARGV[3] the 12-byte record (seconds since 2020, blogId)  ARGV[4] cap per author
return a_deliver(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]))
