#!/usr/bin/env bash
# Runs the Python package's tests (clients/python/tests, pytest) against a Titlecard it starts on
# 127.0.0.1 (the built server, embedded default, in a temporary DATA_DIR) and stops afterwards.
# Needs `npm run build`, and python with the package and pytest installed (.ci/run makes a venv).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
user() {
  DATA_DIR="$dir" node dist/cli.js users create --email "$1@example.com" --name "$1" --tier "$2" --json |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))'
}
TITLECARD_TOKEN=$(user python agency)
TITLECARD_FREE_TOKEN=$(user python-free free)
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
# FETCH_ALLOW_ADDRESSES: the webhook test's receiver listens on 127.0.0.1.
DATA_DIR="$dir" PORT="$port" HOST=127.0.0.1 PUBLIC_URL="http://127.0.0.1:$port" LOG_LEVEL=warn \
  FETCH_ALLOW_ADDRESSES=127.0.0.1 \
  node dist/cli.js serve 2> "$dir/server.log" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$port/healthz" && break
  sleep 0.2
done
status=0
TITLECARD_API="http://127.0.0.1:$port/api" TITLECARD_TOKEN="$TITLECARD_TOKEN" \
  TITLECARD_FREE_TOKEN="$TITLECARD_FREE_TOKEN" TITLECARD_PHOTO=test/fixtures/photos/friends_by_Aitzol_Berasategi.jpg \
  python -m pytest -q clients/python/tests "$@" || status=$?
[ "$status" -eq 0 ] || { echo "!! server log:"; tail -20 "$dir/server.log"; }
exit "$status"
