-- remove_many.lua: one deleted blog is removed for several followers, each exactly as remove_one.lua would remove it:
-- KEYS holds remove.lua's five keys of each follower in turn, ARGV is remove_one.lua's. One script for many
-- followers saves Redis the call, the argument parsing and the script lookup per follower; on Redis Cluster the
-- followers of one script share a slot.
-- Returns how many followers had the blog unread.
if #KEYS == 0 or #KEYS % 5 ~= 0 then return redis.error_reply('remove_many.lua: KEYS must be five per follower, got ' .. #KEYS) end
local removal = removal_of(ARGV)
local removed = 0
local changed = {}
for k = 0, #KEYS - 5, 5 do
  if remove_blog(k, removal) == 1 then
    removed = removed + 1
    changed[#changed + 1] = k
  end
end
notify_each(changed, removal.kind, removal.author, removal.blog)
return removed
