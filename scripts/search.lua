-- wrk script for make bench: every request searches for a new random
-- query, so none is answered from the search cache.
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
local letters = "abcdefghijklmnopqrstuvwxyz"
request = function()
  local t = {}
  for i = 1, 10 do
    local k = math.random(1, #letters)
    t[i] = letters:sub(k, k)
  end
  return wrk.format("GET", "/search?q=water+" .. table.concat(t))
end
