#!/bin/sh
# `npm run bench`: the whole benchmark, from one run. The HTTP cases against raw node:http (and
# the official SDK with --peer; any option is passed to bench/run.ts), then multi round-trip and
# single-use round trips per store, idle listen streams in one process and across two workers,
# and startup to first answer.
set -e
sh bench/setup.sh
npm run --silent build
node --import tsx bench/run.ts "$@"
node --import tsx bench/mrtr.ts
node --import tsx bench/listen.ts
node --import tsx bench/startup.ts
