#!/bin/sh
# `npm run bench`: the whole benchmark, from one run. The HTTP cases against raw node:http (and
# the official SDK and mcp-use with --peer; any option is passed to this first run, and --peer to
# the startup benchmark too), raw node:http made slower beside raw and Tessera, the same cases on
# Bun and Deno against their own raw servers, then multi round-trip and single-use round trips per
# store, idle listen streams in one process and across two workers, startup to first answer, and a
# Worker on workerd (bundle, first request and CPU per request, beside the official SDK's), with a
# profile of where a fresh isolate's first request goes.
set -e
sh bench/setup.sh
npm run --silent build
node --import tsx bench/run.ts "$@"
# What being slower costs a server in the kernel alone: raw node:http spinning 10 µs more per request.
node --import tsx bench/run.ts --servers raw,raw-busy,tessera --cases tools-call --connections 16 --generators wrk --reps 3
# The same cases on Bun and Deno, each against its own runtime's raw server (wrk only).
node --import tsx bench/run.ts --runtime bun --generators wrk
node --import tsx bench/run.ts --runtime deno --generators wrk
node --import tsx bench/mrtr.ts
node --import tsx bench/listen.ts
case " $* " in *" --peer "*) startup_peer=--peer ;; *) startup_peer= ;; esac
node --import tsx bench/startup.ts $startup_peer
node --import tsx bench/workerd.ts
node --import tsx bench/first-request.ts
