-- wrk script: POSTs the body in $BENCH_BODY_FILE with the bearer token in $BENCH_TOKEN (GET when no body file).
local body_file = os.getenv("BENCH_BODY_FILE")
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BENCH_TOKEN") or "")
if body_file and body_file ~= "" then
  local f = assert(io.open(body_file, "r"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  f:close()
  wrk.headers["Content-Type"] = "application/json"
end

local failures = 0
function response(status, headers, body)
  if status ~= 200 or string.find(body, '"errors"', 1, true) then failures = failures + 1 end
end

function done(summary, latency, requests)
  io.write(string.format("BENCH non-200-or-errors=%d\n", failures))
end
