-- wrk script: GET search-places over a mixed query set (docs/performance.md, "Place search").
-- wrk -t2 -c64 -d15s -s tools/wrk/places.lua http://127.0.0.1:PORT
local queries = {
  "brooklyn", "Austin%2C%20TX", "austin%20tx", "Williamsburg", "10001", "100", "NYC", "St.%20Louis",
  "Saint%20Louis", "Ft%20Worth", "Munchen", "M%C3%BCnchen", "b", "bro", "brookl", "s", "san", "san%20fran",
  "los%20angeles", "chicago", "houston%20tx", "phoenix", "seattle", "denver", "boston%20ma", "miami",
  "new%20york", "texas", "94103", "9410", "paris", "munich%20germany", "springfield", "harlem",
  "350%205th%20Ave%2C%20New%20York%2C%20NY%2010118", "asdfghjkl",
}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/api/store/physical-store/search-places?q=" .. queries[(i % #queries) + 1])
end
