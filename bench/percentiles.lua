-- wrk -s bench/percentiles.lua: prints the latency percentiles wrk's
-- --latency leaves out (p95 among them), in milliseconds.
done = function(summary, latency, requests)
  local out = {}
  for _, p in ipairs({50, 90, 95, 99}) do
    out[#out + 1] = string.format("p%d %.2f ms", p, latency:percentile(p) / 1000)
  end
  io.write(table.concat(out, "  ") .. string.format("  (%d requests)\n", summary.requests))
end
