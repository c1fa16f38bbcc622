-- wrk script: GET store pages from a list of paths, one a line (docs/performance.md, "Store pages").
-- PAGES=/tmp/store-pages.txt wrk -t2 -c64 -d10s --latency -s tools/wrk/store-pages.lua http://127.0.0.1:PORT
local paths = {}
for line in io.lines(os.getenv("PAGES") or "/tmp/store-pages.txt") do
  paths[#paths + 1] = line
end
local i = 0
init = function(args)
  -- each thread starts at its own place in the list
  i = math.random(#paths)
end
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
