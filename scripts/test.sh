#!/usr/bin/env bash
# The whole test suite: lint, type check, unit tests, then integration tests against a real Elasticsearch and
# a real Redis. Uses ES_URL / REDIS_URL when they are set and answer; otherwise starts a local Elasticsearch on
# a free port (and a redis-server when none answers on 127.0.0.1:6379), and stops what it started on exit,
# whether the tests pass, fail or are interrupted.
#
# `bash scripts/test.sh --slow` (npm run test:slow) runs the slower leg instead, with the same services: the tests
# in test/slow/ that repeat a guarantee at a larger scale or with a start of their own, then the benchmark smoke
# run (CI runs the leg once).
set -euo pipefail
cd "$(dirname "$0")/.."

slow=""
[ "${1:-}" = "--slow" ] && slow=1

started_es_port=""
es_pid=""
started_redis_pid=""
started_redis_dir=""

cleanup() {
  local code=$?
  trap - EXIT INT TERM
  # A start still under way (the run failed before it was awaited) finishes first, so that its stop finds it.
  if [ -n "$es_pid" ]; then wait "$es_pid" 2>/dev/null || true; fi
  if [ -n "$started_es_port" ]; then ES_PORT="$started_es_port" bash scripts/elasticsearch.sh stop --purge || true; fi
  if [ -n "$started_redis_pid" ]; then
    kill "$started_redis_pid" 2>/dev/null || true
    rm -rf "$started_redis_dir"
  fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
stage() { printf '\n==== %s ====\n' "$*"; }

# A fresh clone: install the locked dependencies first, so `npm test` is the only command needed.
[ -f node_modules/.package-lock.json ] || { stage "npm ci"; npm ci --no-audit --no-fund; }

# Elasticsearch starts in the background while the lint, the type check and the unit tests run (they need no
# server): its start is mostly waiting on the JVM.
es_log=""
stage "services"
if [ -n "${ES_URL:-}" ] && curl -fsS --max-time 3 "${ES_URL%%,*}/_cluster/health" >/dev/null 2>&1; then
  echo "using Elasticsearch at $ES_URL"
else
  [ -n "${ES_URL:-}" ] && echo "ES_URL=$ES_URL does not answer: starting a local Elasticsearch instead"
  port="$(free_port)"
  started_es_port="$port"
  es_log="$(mktemp)"
  echo "starting Elasticsearch on 127.0.0.1:$port in the background"
  ES_PORT="$port" bash scripts/elasticsearch.sh start >"$es_log.url" 2>"$es_log" &
  es_pid=$!
fi

if [ -z "$slow" ]; then
  # The three checks that need no server run side by side (each is one process: two cores hold them, beside the
  # Elasticsearch start); each one's output is shown whole, in this order, then the first failure stops the run.
  checks_dir="$(mktemp -d)"
  npm run --silent lint >"$checks_dir/lint" 2>&1 &
  lint_pid=$!
  npm run --silent typecheck >"$checks_dir/typecheck" 2>&1 &
  typecheck_pid=$!
  npm run --silent test:unit >"$checks_dir/unit" 2>&1 &
  unit_pid=$!
  checks_code=0
  for check in "lint:$lint_pid" "type check:$typecheck_pid" "unit tests:$unit_pid"; do
    name="${check%%:*}"
    code=0
    wait "${check##*:}" || code=$?
    stage "$name"
    case "$name" in lint) cat "$checks_dir/lint" ;; "type check") cat "$checks_dir/typecheck" ;; *) cat "$checks_dir/unit" ;; esac
    if [ "$code" -ne 0 ]; then echo "$name failed (exit $code)" >&2; [ "$checks_code" -ne 0 ] || checks_code=$code; fi
  done
  rm -rf "$checks_dir"
  [ "$checks_code" -eq 0 ] || exit "$checks_code"
fi

if [ -n "$es_pid" ]; then
  es_code=0
  wait "$es_pid" || es_code=$?
  es_pid=""
  cat "$es_log" >&2
  [ "$es_code" -eq 0 ] || { echo "Elasticsearch did not start (exit $es_code)" >&2; exit 1; }
  ES_URL="$(cat "$es_log.url")"
  rm -f "$es_log" "$es_log.url"
fi
export ES_URL

redis_answers() { [ "$(redis-cli -u "$1" ping 2>/dev/null)" = PONG ]; }
if [ -n "${REDIS_URL:-}" ] && redis_answers "$REDIS_URL"; then
  echo "using Redis at $REDIS_URL"
elif redis_answers redis://127.0.0.1:6379; then
  REDIS_URL=redis://127.0.0.1:6379
  echo "using Redis at $REDIS_URL"
else
  command -v redis-server >/dev/null 2>&1 || { echo "redis-server is not installed (apt-get install redis-server)" >&2; exit 1; }
  port="$(free_port)"
  started_redis_dir="$(mktemp -d)"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$started_redis_dir" \
    --daemonize yes --pidfile "$started_redis_dir/redis.pid" --logfile "$started_redis_dir/redis.log"
  for _ in $(seq 50); do [ -s "$started_redis_dir/redis.pid" ] && redis_answers "redis://127.0.0.1:$port" && break; sleep 0.1; done
  started_redis_pid="$(cat "$started_redis_dir/redis.pid")"
  REDIS_URL="redis://127.0.0.1:$port"
  echo "started redis-server at $REDIS_URL"
fi
export REDIS_URL

if [ -n "$slow" ]; then
  stage "slower leg (test/slow)"
  npx mocha --timeout 600000 'test/slow/**/*.test.ts'
  # The benches are tools, not the product: their smoke run (every suite's quick form, two minutes of both
  # cores) proves they still run, once per CI run, here rather than in every `npm test`.
  stage "benchmark smoke run: every suite's quick form (test/bench)"
  npm run --silent test:bench
  exit 0
fi

# Two files at a time (mocha --parallel, a process each): each file makes its own indices, Redis keys, databases
# and servers, so they share nothing but the machine; the suite's bounds on time are the users' own, far from
# what two processes on two cores cost each other.
stage "integration tests (two files at a time)"
# Each file's time goes to a directory of its own (test/support/fileTimes.ts); the ten slowest are named at the
# end, passed or failed: they are where the suite's time goes.
# The slowest files start first (the longest first, as measured on the 2 shared cores of CI): the two workers then
# end together on short files, where in name order relevance.test.ts (six minutes on a loaded machine) started
# late and ran on alone. The rest follow in name order; a file named here and since removed is left out.
slow_first=(relevance secured-elasticsearch api-ppas-ocds indexer-cli indexer-exit-codes api-ppas-cursor
  indexer-reindex zero-results indexer-sync indexer-guards api-ppas-export api-ppas-changes)
integration_files=()
for name in "${slow_first[@]}"; do
  [ -f "test/integration/$name.test.ts" ] && integration_files+=("test/integration/$name.test.ts")
done
for file in test/integration/*.test.ts; do
  case " ${integration_files[*]} " in *" $file "*) ;; *) integration_files+=("$file") ;; esac
done
times_dir="$(mktemp -d)"
integration_started=$SECONDS
integration_code=0
# test:integration's own options (package.json), with the files in this order.
TEST_FILE_TIMES_DIR="$times_dir" npx mocha --timeout 120000 --parallel --jobs 2 \
  --require test/support/fileTimes.ts "${integration_files[@]}" || integration_code=$?
stage "integration stage: $((SECONDS - integration_started)) s; the ten slowest files"
cat "$times_dir"/*.tsv 2>/dev/null | sort -rn | head -10 | awk -F'\t' '{ printf "%7.1f s  %s\n", $1 / 1000, $2 }'
rm -rf "$times_dir"
[ "$integration_code" -eq 0 ] || exit "$integration_code"

