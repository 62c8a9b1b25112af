-- deliver_one.lua: one published blog becomes unread for one follower (deliver.lua, with k = 0).
-- ARGV[1] authorId  ARGV[2] blogId  ARGV[3] publishedAt ms  ARGV[4] most unread kept per (U, A)
-- ARGV[5] the merged member of (A, blogId), 16 bytes (members.lua)
return deliver(0, ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5])
