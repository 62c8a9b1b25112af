-- merged_authors.lua (read-only; reconcile): the authors a slice of the user's merged index has entries of.
-- KEYS[1] rm:{u:U}:merged
-- ARGV[1] first rank of the slice  ARGV[2] its length
-- Returns {ZCARD(merged), author prefix as 16 hex digits, ...}, each author once per slice, only those that are
-- positive ids (a first byte below 0x80, not all zero): the caller checks their sets too, so a set that lacks its
-- count is not taken for strays in the index.
local first = tonumber(ARGV[1])
local found, seen = {redis.call('ZCARD', KEYS[1])}, {}
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], first, first + tonumber(ARGV[2]) - 1)) do
  local prefix = string.sub(member, 1, 8)
  if #member == 16 and not seen[prefix] and string.byte(prefix, 1) < 128 and prefix ~= string.rep('\0', 8) then
    seen[prefix] = true
    found[#found + 1] = hex(prefix)
  end
end
return found
