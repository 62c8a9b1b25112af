-- notify.lua: prepended to every script that changes what a user sees. The same script that changes the state tells
-- the user's open streams about it, only when it changed something, so a notification is never ahead of the state
-- a read sees, and none is sent for a replay that changed nothing.
-- live_key rm:{u:U}:live (a stream is open for U: set, with a TTL, by the view API), channel rm:{u:U}:changes: both
-- carry the user's hash tag and come in KEYS, so the script stays in one slot on Redis Cluster.
-- Every such change also bumps the user's state version, counts field v, whether anyone listens: one more per
-- change, none for a replay. A new v starts at the time in microseconds, so after Redis was lost and rebuilt a user's
-- versions start above any they had. The message is 'version kind [author [blog]]'. Sharded SPUBLISH where Redis has
-- it (7.0+, which is also when redis.REDIS_VERSION_NUM appeared); PUBLISH before. Nothing is published while nobody listens: PUBLISH is replicated
-- and, on a cluster, broadcast to every node, and a user with no open stream is the common case.

-- Broadcast notices (notice_publish.lua, notice_withdraw.lua) tell an audience's channel rm:{a:X}:changes, which
-- carries the audience's hash tag. No live-key gate: a publish or withdraw is rare, and any member may be listening.
local function broadcast(channel, message)
  if redis.REDIS_VERSION_NUM then
    redis.call('SPUBLISH', channel, message)
  else
    redis.call('PUBLISH', channel, message)
  end
end

-- counts_key's version after one more change; a number (exact: below 2^53 until the year 2255).
local function bump_version(counts_key)
  local version = redis.call('HINCRBY', counts_key, 'v', 1)
  if version == 1 then
    local now = redis.call('TIME')
    version = redis.call('HINCRBY', counts_key, 'v', now[1] .. string.format('%06d', tonumber(now[2])))
  end
  return version
end

local function change_message(version, kind, author, blog)
  local message = string.format('%.0f', version) .. ' ' .. kind
  if author then message = message .. ' ' .. author end
  if blog then message = message .. ' ' .. blog end
  return message
end

-- A change of one user's state: its version bumped, published only while a stream of theirs is live.
local function notify(counts_key, live_key, channel, kind, author, blog)
  local version = bump_version(counts_key)
  if redis.call('EXISTS', live_key) == 0 then return end
  broadcast(channel, change_message(version, kind, author, blog))
end

-- The users at the KEYS offsets `changed` (each one's counts at k + 2, live key at k + 6, channel at k + 7, as the
-- delivery and removal scripts lay out their keys) changed alike: each one's version bumped, one MGET of their live
-- keys (at most 100, one slot) instead of an EXISTS each, as most have no stream open, then a publish to each live one.
local function notify_each(changed, kind, author, blog)
  if #changed == 0 then return end
  local live_keys, versions = {}, {}
  for i, k in ipairs(changed) do
    versions[i] = bump_version(KEYS[k + 2])
    live_keys[i] = KEYS[k + 6]
  end
  local live = redis.call('MGET', unpack(live_keys))
  for i, k in ipairs(changed) do
    if live[i] then broadcast(KEYS[k + 7], change_message(versions[i], kind, author, blog)) end
  end
end
