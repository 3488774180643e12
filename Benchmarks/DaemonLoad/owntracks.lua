-- wrk script: OwnTracks HTTP location reports from many people at once.
-- `people.lua` (written by scripts/bench-daemon.sh) defines `auth`, one
-- Basic header per person. Each request is one person's phone reporting a
-- point somewhere in central Helsinki, taken now.
dofile(os.getenv("WHILEHERE_BENCH_PEOPLE"))

local counter = 0
local made = 0

setup = function(thread)
  made = made + 1
  thread:set("id", made)
end

-- Each thread (and each wrk process, by WHILEHERE_BENCH_SEED) draws its
-- own points and starts at its own person: with one seed every thread
-- sent the same person the same body in the same second, and a queue that
-- stores a report sent again once (whilehered --cluster) counted those once.
init = function(args)
  local seed = tonumber(os.getenv("WHILEHERE_BENCH_SEED") or "0") + (id or 0) * 7919
  math.randomseed(seed)
  counter = seed % #auth
end

-- WHILEHERE_BENCH_ACTIVE=N: only the first N people report (0: all).
local active = tonumber(os.getenv("WHILEHERE_BENCH_ACTIVE") or "0")
request = function()
  counter = counter + 1
  local n = #auth
  if active > 0 and active < n then n = active end
  local person = (counter % n) + 1
  local lat = 60.160 + math.random() * 0.02
  local lon = 24.920 + math.random() * 0.04
  local body = string.format('{"_type":"location","lat":%.6f,"lon":%.6f,"tst":%d,"acc":%d,"batt":80}',
    lat, lon, os.time(), math.random(5, 40))
  return wrk.format("POST", "/owntracks", {
    ["Authorization"] = auth[person],
    ["Content-Type"] = "application/json",
    ["X-Limit-D"] = "phone",
  }, body)
end
