#!/bin/sh
# Installs the tools the benchmarks measure with, Debian packages, when they are missing: wrk, the
# C load generator, and valgrind, whose callgrind counts instructions (`bench:instructions`, and
# the regression guard's two counts). Without root or apt-get it says how: the HTTP cases then run
# with autocannon alone, and the instruction counts cannot run.
ensure() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "bench: installing $1 (apt-get install $1) ..."
    apt-get install -y -qq --no-install-recommends "$1" >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends "$1" >/dev/null 2>&1; } ||
      echo "bench: apt-get install $1 failed; $2"
  else
    echo "bench: $1 is not installed and cannot be installed here (as root: apt-get install $1); $2"
  fi
}
ensure wrk 'the HTTP cases run with autocannon only'
ensure valgrind 'the instruction counts cannot run'
exit 0
