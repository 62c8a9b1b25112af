-- hash_sample.lua (read-only): a bounded look at a hash too big to read whole.
-- KEYS[1] the hash  ARGV[1] COUNT of one HSCAN  ARGV[2..] fields read exactly
-- Returns {HLEN, {the named fields' values, false where absent}, {field, value, ...} of one HSCAN from cursor 0}.
-- One script, so the three parts show one moment. Its work is the named fields and one HSCAN, which visits at most
-- ten times COUNT buckets (a listpack, whatever COUNT, whole: hash-max-listpack-entries bounds it), whatever the
-- hash holds.
local values = {}
if #ARGV > 1 then values = redis.call('HMGET', KEYS[1], unpack(ARGV, 2)) end
local scan = redis.call('HSCAN', KEYS[1], '0', 'COUNT', ARGV[1])
return {redis.call('HLEN', KEYS[1]), values, scan[2]}
