#!/bin/sh
# Installs the C load generator the benchmarks measure with (wrk, a Debian package) when it is
# missing. Without root or apt-get it says how, and the HTTP cases run with autocannon alone.
command -v wrk >/dev/null 2>&1 && exit 0
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "bench: installing wrk (apt-get install wrk) ..."
  apt-get install -y -qq --no-install-recommends wrk >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends wrk >/dev/null 2>&1; } ||
    echo "bench: apt-get install wrk failed; the HTTP cases run with autocannon only"
else
  echo "bench: wrk is not installed and cannot be installed here (as root: apt-get install wrk)"
fi
exit 0
