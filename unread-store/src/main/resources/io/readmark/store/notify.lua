-- notify.lua: prepended to every script that changes what a user sees. The same script that changes the state tells
-- the user's open streams about it, only when it changed something, so a notification is never ahead of the state
-- a read sees, and none is sent for a replay that changed nothing.
-- live_key rm:{u:U}:live (a stream is open for U: set, with a TTL, by the view API), channel rm:{u:U}:changes: both
-- carry the user's hash tag and come in KEYS, so the script stays in one slot on Redis Cluster.
-- The message is 'kind [author [blog]]'. Sharded SPUBLISH where Redis has it (7.0+, which is also when
-- redis.REDIS_VERSION_NUM appeared); PUBLISH before. Nothing is published while nobody listens: PUBLISH is replicated
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

local function change_message(kind, author, blog)
  local message = kind
  if author then message = message .. ' ' .. author end
  if blog then message = message .. ' ' .. blog end
  return message
end

-- A change of one user's state, published only while a stream of theirs is live.
local function notify(live_key, channel, kind, author, blog)
  if redis.call('EXISTS', live_key) == 0 then return end
  broadcast(channel, change_message(kind, author, blog))
end

-- The users at the KEYS offsets `changed` (each one's live key at k + 6, its channel at k + 7, as the delivery and
-- removal scripts lay out their keys) changed alike: one MGET of their live keys (at most 100, one slot) instead of
-- an EXISTS each, as most have no stream open, then a publish to each live one.
local function notify_each(changed, message)
  if #changed == 0 then return end
  local live_keys = {}
  for i, k in ipairs(changed) do live_keys[i] = KEYS[k + 6] end
  local live = redis.call('MGET', unpack(live_keys))
  for i, k in ipairs(changed) do
    if live[i] then broadcast(KEYS[k + 7], message) end
  end
end
