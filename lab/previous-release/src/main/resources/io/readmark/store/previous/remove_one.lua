-- remove_one.lua: one blog is read by, or deleted for, one user (remove.lua, with k = 0; ARGV as removal_of reads it).
local removal = removal_of(ARGV)
local removed = remove_blog(0, removal)
if removed == 1 then notify(KEYS[2], KEYS[6], KEYS[7], removal.kind, removal.author, removal.blog) end
return removed
