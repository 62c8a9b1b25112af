-- deliver_one.lua: one published blog becomes unread for one follower (deliver.lua, with k = 0; ARGV as post_of reads it).
local post = post_of(ARGV)
local delta, changed = deliver(0, post)
if changed then notify(KEYS[2], KEYS[6], KEYS[7], 'delivered', post.author, post.blog) end
return delta
