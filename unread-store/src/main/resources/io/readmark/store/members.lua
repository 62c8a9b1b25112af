-- members.lua: prepended to every script; ids as the 8 big-endian bytes records hold (counters.lua).
-- Ids are non-negative 64-bit (positive by contract), so their bytes' order is their numeric order. Lua numbers are
-- doubles, exact only below 2^53: an id is never turned into one number here, only into limbs of nine decimal digits,
-- which stay exact.

-- The 8 big-endian bytes of a non-negative 64-bit id given in canonical decimal, or nil for anything else.
local function id_bytes(decimal)
  if #decimal > 19 or not (string.match(decimal, '^[1-9]%d*$') or decimal == '0') then return nil end
  local split = #decimal - 9
  local high, low = 0, tonumber(decimal)
  if split > 0 then
    high, low = tonumber(string.sub(decimal, 1, split)), tonumber(string.sub(decimal, split + 1))
  end
  -- above 2^63 - 1 = 9223372036 854775807
  if high > 9223372036 or (high == 9223372036 and low > 854775807) then return nil end
  -- Long division of high * 10^9 + low by 256, eight times: every intermediate stays below 2^38.
  local bytes = {}
  for i = 8, 1, -1 do
    local high_quotient = math.floor(high / 256)
    local current = (high - high_quotient * 256) * 1000000000 + low
    local low_quotient = math.floor(current / 256)
    bytes[i] = current - low_quotient * 256
    high, low = high_quotient, low_quotient
  end
  return string.char(unpack(bytes))
end
