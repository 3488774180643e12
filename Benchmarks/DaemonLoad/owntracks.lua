-- wrk script: OwnTracks HTTP location reports from many people at once.
-- `people.lua` (written by scripts/bench-daemon.sh) defines `auth`, one
-- Basic header per person. Each request is one person's phone reporting a
-- point somewhere in central Helsinki, taken now.
dofile(os.getenv("WHILEHERE_BENCH_PEOPLE"))

local counter = 0

request = function()
  counter = counter + 1
  local person = (counter % #auth) + 1
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
