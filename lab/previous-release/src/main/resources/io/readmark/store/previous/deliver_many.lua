-- deliver_many.lua: one published blog becomes unread for several followers, each exactly as deliver_one.lua would
-- make it: KEYS holds deliver.lua's seven keys of each follower in turn, ARGV is deliver_one.lua's. One script for
-- many followers saves Redis the call, the argument parsing and the script lookup per follower; on Redis Cluster
-- the followers of one script share a slot.
-- Returns the sum of the changes of counts[A].
if #KEYS == 0 or #KEYS % 7 ~= 0 then return redis.error_reply('deliver_many.lua: KEYS must be seven per follower, got ' .. #KEYS) end
local post = post_of(ARGV)
local delta = 0
local changed = {}
for k = 0, #KEYS - 7, 7 do
  local follower_delta, follower_changed = deliver(k, post)
  delta = delta + follower_delta
  if follower_changed then changed[#changed + 1] = k end
end
notify_each(changed, 'delivered', post.author, post.blog)
return delta
