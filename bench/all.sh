#!/bin/sh
# `npm run bench`: the whole benchmark, from one run. The HTTP cases against raw node:http (and
# the official SDK with --peer; any option is passed to bench/run.ts), then multi round-trip and
# single-use round trips per store, idle listen streams in one process and across two workers,
# startup to first answer, and a Worker on workerd (bundle, first request and CPU per request,
# beside the official SDK's), with a profile of where a fresh isolate's first request goes.
set -e
sh bench/setup.sh
npm run --silent build
node --import tsx bench/run.ts "$@"
node --import tsx bench/mrtr.ts
node --import tsx bench/listen.ts
node --import tsx bench/startup.ts
node --import tsx bench/workerd.ts
node --import tsx bench/first-request.ts
