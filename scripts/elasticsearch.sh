#!/usr/bin/env bash
# Local Elasticsearch for development and tests: the official test distribution from Maven Central,
# run as a dedicated non-root user on 127.0.0.1, security off: one node, or a cluster of ES_NODES nodes.
#
#   scripts/elasticsearch.sh start|stop [--purge]|status|url|fetch|kill|restart
#
# `stop --purge` also deletes the node's run directory (data, logs): what the test suite does with the throwaway
# servers it starts on free ports, so that runs leave nothing behind. A plain `stop` keeps them for a look at the logs.
#
# A cluster (ES_NODES=3, or ES_PORTS=9200,9201,9202): one run directory and HTTP port per node (ES_PORT, ES_PORT+1,
# ... unless ES_PORTS lists them), transport ports chosen free, a cluster name unique to this start (two clusters
# on one machine never join each other). start, stop and status act on every node; `url` and start print the
# comma-separated node URLs (an ES_URL). `kill` (SIGKILL) and `restart` (same data, same cluster) act on the one
# node of ES_PORT, for tests that lose a node: `ES_PORT=9201 scripts/elasticsearch.sh kill`.
#
# Environment: ES_VERSION (default 8.19.9), ES_PORT (default 9200), ES_NODES (default 1), ES_PORTS, ES_HEAP
# (default 512m; 384m per node in a cluster),
# ES_CACHE_DIR (unpacked distributions, keyed by version), ES_RUN_ROOT (where the run directories go; must be
# the caller's own and not writable by others), ES_RUN_DIR (data, logs, pid; keyed by version and port; for a
# cluster, the parent of one directory per node),
# ES_JAVA_HOME (a JDK to use instead of the one found), ES_JVM_DIR (where JDKs are looked for, default
# /usr/lib/jvm), ES_START_TIMEOUT_S (default 120).
set -euo pipefail

ES_VERSION="${ES_VERSION:-8.19.9}"
ES_PORT="${ES_PORT:-9200}"
ES_PORTS="${ES_PORTS:-}"
if [ -n "$ES_PORTS" ]; then
  IFS=, read -r -a NODE_PORTS <<<"$ES_PORTS"
  ES_NODES="${#NODE_PORTS[@]}"
else
  ES_NODES="${ES_NODES:-1}"
  case "$ES_NODES" in '' | *[!0-9]* | 0) printf 'elasticsearch: ERROR: ES_NODES must be a whole number from 1 (got %s)\n' "$ES_NODES" >&2; exit 2 ;; esac
  NODE_PORTS=()
  for ((i = 0; i < ES_NODES; i++)); do NODE_PORTS+=("$((ES_PORT + i))"); done
fi
for port in "${NODE_PORTS[@]}"; do
  case "$port" in '' | *[!0-9]*) printf 'elasticsearch: ERROR: not a port: "%s" (ES_PORT/ES_PORTS)\n' "$port" >&2; exit 2 ;; esac
done
if [ "$ES_NODES" -gt 1 ]; then ES_HEAP="${ES_HEAP:-384m}"; else ES_HEAP="${ES_HEAP:-512m}"; fi
ES_START_TIMEOUT_S="${ES_START_TIMEOUT_S:-120}"
ES_USER="${ES_USER:-ppa-es}"
ARTIFACT="org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ES_VERSION}:zip"

# The run directories live under one parent of ours (ES_RUN_ROOT) in a world-writable place (/var/tmp, /tmp):
# start checks that parent before using it (safe_run_root).
if [ "$(id -u)" = 0 ]; then
  # Root's home is closed to other users, so the unpacked server lives where the ES user can read it.
  ES_CACHE_DIR="${ES_CACHE_DIR:-/var/cache/ppa-search/elasticsearch}"
  ES_RUN_ROOT="${ES_RUN_ROOT:-/var/tmp/ppa-search}"
else
  ES_CACHE_DIR="${ES_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ppa-search/elasticsearch}"
  ES_RUN_ROOT="${ES_RUN_ROOT:-${TMPDIR:-/tmp}/ppa-search-$(id -un)}"
fi
BASE_RUN_DIR="${ES_RUN_DIR:-}"
ES_HOME="${ES_CACHE_DIR}/${ES_VERSION}/elasticsearch-${ES_VERSION}"

# The node the per-node functions below act on: its HTTP port, run directory, pid file and URL.
use_node() {
  ES_PORT="$1"
  if [ -z "$BASE_RUN_DIR" ]; then ES_RUN_DIR="${ES_RUN_ROOT}/es-${ES_VERSION}-${ES_PORT}"
  elif [ "$ES_NODES" -gt 1 ]; then ES_RUN_DIR="$BASE_RUN_DIR/node-$ES_PORT"
  else ES_RUN_DIR="$BASE_RUN_DIR"; fi
  PID_FILE="${ES_RUN_DIR}/es.pid"
  URL="http://127.0.0.1:${ES_PORT}"
}
use_node "${NODE_PORTS[0]}"
all_urls() {
  local port urls=()
  for port in "${NODE_PORTS[@]}"; do urls+=("http://127.0.0.1:$port"); done
  (IFS=,; printf '%s\n' "${urls[*]}")
}

say() { printf 'elasticsearch: %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

major_version() { printf '%s' "${ES_VERSION%%.*}"; }

required_java() {
  # ES 9 needs Java 21+, ES 8 needs Java 17+.
  if [ "$(major_version)" -ge 9 ]; then echo 21; else echo 17; fi
}

java_major() {
  # Prints the major version of the java binary in JDK home $1, or nothing.
  local out
  out="$("$1/bin/java" -version 2>&1 | head -n 1)" || return 0
  out="$(printf '%s' "$out" | sed -E 's/.*version "([0-9]+)(\.[0-9]+)?.*/\1/')"
  case "$out" in ''|*[!0-9]*) return 0 ;; esac
  # "1.8" style versions report 1: treat as 8.
  [ "$out" = 1 ] && out=8
  echo "$out"
}

find_java_home() {
  local need candidates=() home v best="" best_v=999
  need="$(required_java)"
  if [ -n "${ES_JAVA_HOME:-}" ]; then
    [ -x "$ES_JAVA_HOME/bin/java" ] || die "ES_JAVA_HOME=$ES_JAVA_HOME has no bin/java"
    v="$(java_major "$ES_JAVA_HOME")"
    [ -n "$v" ] && [ "$v" -ge "$need" ] || die "ES_JAVA_HOME=$ES_JAVA_HOME is Java ${v:-unknown}; Elasticsearch $ES_VERSION needs Java $need or newer"
    echo "$ES_JAVA_HOME"; return
  fi
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  for home in "${ES_JVM_DIR:-/usr/lib/jvm}"/*; do [ -d "$home" ] && candidates+=("$home"); done
  for home in "${candidates[@]}"; do
    [ -x "$home/bin/java" ] || continue
    v="$(java_major "$home")"
    [ -n "$v" ] || continue
    # The oldest JDK that is new enough: the one this ES major was built and tested against.
    if [ "$v" -ge "$need" ] && [ "$v" -lt "$best_v" ]; then best="$home"; best_v="$v"; fi
  done
  [ -n "$best" ] || die "no suitable JDK found: Elasticsearch $ES_VERSION needs Java $need or newer (looked in \$JAVA_HOME and ${ES_JVM_DIR:-/usr/lib/jvm}; set ES_JAVA_HOME)"
  echo "$best"
}

fetch() {
  [ -x "$ES_HOME/bin/elasticsearch" ] && return 0
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) is not on PATH: it is needed to fetch $ARTIFACT from Maven Central (apt-get install maven)"
  command -v unzip >/dev/null 2>&1 || die "unzip is not on PATH (apt-get install unzip)"
  local repo zip
  repo="$(mvn -q -B help:evaluate -Dexpression=settings.localRepository -DforceStdout 2>/dev/null || true)"
  [ -d "$repo" ] || repo="$HOME/.m2/repository"
  zip="$repo/org/elasticsearch/distribution/integ-test-zip/elasticsearch/${ES_VERSION}/elasticsearch-${ES_VERSION}.zip"
  if [ ! -f "$zip" ]; then
    say "downloading $ARTIFACT (about 94 MB) with Maven"
    mvn -q -B dependency:get -Dartifact="$ARTIFACT" -Dtransitive=false >&2 ||
      die "download of $ARTIFACT failed (is Maven Central reachable? does version $ES_VERSION exist?)"
  fi
  [ -f "$zip" ] || die "Maven reported success but $zip is missing"
  say "unpacking $ES_VERSION into $ES_CACHE_DIR/$ES_VERSION"
  local tmp="$ES_CACHE_DIR/.unpack-$$"
  rm -rf "$tmp"; mkdir -p "$tmp"
  unzip -q "$zip" -d "$tmp" || die "could not unpack $zip"
  mkdir -p "$ES_CACHE_DIR/$ES_VERSION"
  rm -rf "$ES_HOME"
  mv "$tmp/elasticsearch-${ES_VERSION}" "$ES_HOME"
  rm -rf "$tmp"
  chmod -R a+rX "$ES_CACHE_DIR"
}

ensure_user() {
  [ "$(id -u)" = 0 ] || return 0
  id "$ES_USER" >/dev/null 2>&1 && return 0
  command -v useradd >/dev/null 2>&1 || die "useradd not found: cannot create the non-root user $ES_USER that Elasticsearch must run as"
  useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER" || die "could not create user $ES_USER"
}

as_es_user() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$ES_USER" -- "$@"; else "$@"; fi
}

running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null)"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && { echo "$pid"; return 0; }
  return 1
}

port_taken() {
  local port="${1:-$ES_PORT}"
  if command -v ss >/dev/null 2>&1; then
    ss -ltnH "( sport = :$port )" 2>/dev/null | grep -q .
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
  fi
}

# A port nobody listens on, for a node's transport: random in the 10,000 ports below the kernel's ephemeral range
# (ip_local_port_range, 32768-60999 by default), so that no outgoing connection takes it between this choice and
# the node's bind (the nodes of a starting cluster connect to each other's transport ports from ephemeral ports:
# once one took the port chosen for a node still starting, which then failed to bind); parallel starts rarely
# collide, and the node fails to bind, and start says so, when one does.
free_port() {
  local port tries=0 low=32768 high
  read -r low high </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
  [ "$low" -gt 11024 ] || low=41024
  while :; do
    port=$((low - 10000 + (RANDOM * 32768 + RANDOM) % 10000))
    port_taken "$port" || { echo "$port"; return 0; }
    tries=$((tries + 1)); [ "$tries" -lt 100 ] || die "no free port found for the transport"
  done
}

# ES_SECURITY=true: security on (authentication, no TLS: local use only), the built-in user `elastic` with the
# password ES_ELASTIC_PASSWORD; for testing the API and the indexer against a secured node.
ES_SECURITY="${ES_SECURITY:-false}"
es_curl() {
  if [ "$ES_SECURITY" = true ]; then curl -u "elastic:${ES_ELASTIC_PASSWORD}" "$@"; else curl "$@"; fi
}

healthy() { es_curl -fsS --max-time 2 "$URL/_cluster/health" >/dev/null 2>&1; }

es_version_running() {
  es_curl -fsS --max-time 2 "$URL/_nodes/_local?filter_path=nodes.*.version" 2>/dev/null |
    sed -E 's/.*"version":"([^"]+)".*/\1/'
}

# Prepares the run directory of the node on ES_PORT (a fresh one, or the one it has for `keep`) and launches the
# node in the background (-d). Its cluster settings stay in node.env, so `restart` starts it as it was.
launch_node() {
  local mode="$1" java_home="$2" cluster_args=()
  if [ "$mode" = fresh ]; then
    rm -rf "$ES_RUN_DIR"
    mkdir -p "$ES_RUN_DIR/data" "$ES_RUN_DIR/logs" "$ES_RUN_DIR/tmp"
    # ES writes its keystore into its config directory: give each run a private, writable copy.
    cp -r "$ES_HOME/config" "$ES_RUN_DIR/config"
    if [ "$ES_NODES" -gt 1 ]; then
      printf 'cluster_name=%s\ntransport_port=%s\nseed_hosts=%s\nheap=%s\n' \
        "$CLUSTER_NAME" "${TRANSPORT_PORTS[$ES_PORT]}" "$SEED_HOSTS" "$ES_HEAP" >"$ES_RUN_DIR/node.env"
    fi
  fi
  local security=(-E xpack.security.enabled=false)
  if [ "$ES_SECURITY" = true ]; then
    [ -n "${ES_ELASTIC_PASSWORD:-}" ] || die "ES_SECURITY=true needs ES_ELASTIC_PASSWORD (the password of the user elastic)"
    if [ "$mode" = fresh ]; then
      printf '%s' "$ES_ELASTIC_PASSWORD" |
        ES_JAVA_HOME="$java_home" ES_PATH_CONF="$ES_RUN_DIR/config" "$ES_HOME/bin/elasticsearch-keystore" add -x -f bootstrap.password >/dev/null ||
        die "could not write the bootstrap password into the keystore"
    fi
    security=(-E xpack.security.enabled=true -E xpack.security.http.ssl.enabled=false
      -E xpack.security.transport.ssl.enabled=false -E xpack.security.authc.api_key.enabled=true)
  fi
  local heap="$ES_HEAP"
  if [ -f "$ES_RUN_DIR/node.env" ]; then
    # Read, not sourced: the ES user owns this directory, and nothing it writes may run as the caller.
    local key value cluster_name="" transport_port="" seed_hosts=""
    while IFS='=' read -r key value; do
      case "$value" in *[!A-Za-z0-9.,:_-]*) die "unexpected value in $ES_RUN_DIR/node.env: $key" ;; esac
      case "$key" in
        cluster_name) cluster_name="$value" ;; transport_port) transport_port="$value" ;;
        seed_hosts) seed_hosts="$value" ;; heap) heap="$value" ;;
      esac
    done <"$ES_RUN_DIR/node.env"
    [ -n "$cluster_name" ] && [ -n "$transport_port" ] && [ -n "$seed_hosts" ] || die "incomplete $ES_RUN_DIR/node.env"
    cluster_args=(-E cluster.name="$cluster_name" -E node.name="node-$ES_PORT" -E transport.port="$transport_port"
      -E discovery.seed_hosts="$seed_hosts")
    # Only the very first start of a new cluster elects from this list; a restarted node rejoins its cluster.
    [ "$mode" = fresh ] && cluster_args+=(-E cluster.initial_master_nodes="$INITIAL_MASTERS")
  else
    cluster_args=(-E discovery.type=single-node)
  fi
  if [ "$(id -u)" = 0 ]; then
    # The run directory's parents must be traversable by the ES user.
    chmod a+x "$(dirname "$ES_RUN_DIR")"
    chown -R "$ES_USER" "$ES_RUN_DIR"
  fi
  say "starting $ES_VERSION on $URL with Java $(java_major "$java_home") ($java_home)"
  as_es_user env ES_JAVA_HOME="$java_home" ES_PATH_CONF="$ES_RUN_DIR/config" ES_TMPDIR="$ES_RUN_DIR/tmp" \
    ES_JAVA_OPTS="-Xms$heap -Xmx$heap ${ES_EXTRA_JAVA_OPTS:-}" \
    "$ES_HOME/bin/elasticsearch" -d -p "$PID_FILE" \
    "${cluster_args[@]}" -E network.host=127.0.0.1 -E http.port="$ES_PORT" \
    -E path.data="$ES_RUN_DIR/data" -E path.logs="$ES_RUN_DIR/logs" \
    -E cluster.routing.allocation.disk.threshold_enabled=false \
    -E action.destructive_requires_name=false \
    "${security[@]}" >"$ES_RUN_DIR/logs/startup.out" 2>&1 ||
    { tail -n 30 "$ES_RUN_DIR/logs/startup.out" >&2; die "Elasticsearch failed to start (see $ES_RUN_DIR/logs)"; }
}

# Waits until the node on ES_PORT answers _cluster/health (with wait_for_nodes=N: until N nodes have joined).
wait_healthy() {
  local nodes="${1:-}" started_at="$2" query="" waited=0
  [ -n "$nodes" ] && query="?wait_for_nodes=$nodes&timeout=1s"
  until es_curl -fsS --max-time 3 "$URL/_cluster/health$query" >/dev/null 2>&1; do
    if [ "$waited" -ge "$ES_START_TIMEOUT_S" ]; then
      tail -n 30 "$ES_RUN_DIR/logs/"*.log >&2 2>/dev/null || true
      die "Elasticsearch did not answer _cluster/health${nodes:+ with $nodes nodes} within ${ES_START_TIMEOUT_S}s"
    fi
    if [ "$waited" -ge 5 ] && ! running_pid >/dev/null; then
      tail -n 30 "$ES_RUN_DIR/logs/startup.out" "$ES_RUN_DIR/logs/"*.log >&2 2>/dev/null || true
      die "Elasticsearch exited during start-up (see $ES_RUN_DIR/logs)"
    fi
    sleep 1; waited=$((SECONDS - started_at))
  done
}

start() {
  local pid port running=0
  for port in "${NODE_PORTS[@]}"; do use_node "$port"; running_pid >/dev/null && running=$((running + 1)); done
  use_node "${NODE_PORTS[0]}"
  if [ "$running" -eq "$ES_NODES" ]; then
    pid="$(running_pid)"
    say "already running (pid $pid, $ES_NODES node(s)) at $URL, version $(es_version_running || echo '?')"
    all_urls; return 0
  fi
  [ "$running" -eq 0 ] || die "$running of the $ES_NODES nodes are running: stop them first (or restart the missing one: ES_PORT=<port> $0 restart)"
  command -v curl >/dev/null 2>&1 || die "curl is not on PATH"
  for port in "${NODE_PORTS[@]}"; do
    port_taken "$port" && die "port $port is taken by another process (set ES_PORT to use another port)"
  done
  [ "$ES_NODES" -gt 1 ] && [ "$ES_SECURITY" = true ] && die "ES_SECURITY=true is for a single node (a secured cluster needs TLS between its nodes)"
  local java_home
  java_home="$(find_java_home)"
  case "$ES_RUN_DIR" in "$ES_RUN_ROOT"/*) safe_run_root ;; esac
  local started_at=$SECONDS
  fetch
  ensure_user
  if [ "$ES_NODES" -eq 1 ]; then
    launch_node fresh "$java_home"
    if ! (wait_healthy "" "$started_at"); then stop >/dev/null 2>&1 || true; exit 1; fi
    say "up after $((SECONDS - started_at))s: version $(es_version_running)"
    echo "$URL"; return 0
  fi
  # A cluster: every node knows every transport address, and the first start elects among all of them.
  declare -gA TRANSPORT_PORTS=()
  local seeds=() masters=() taken=" ${NODE_PORTS[*]} " transport
  for port in "${NODE_PORTS[@]}"; do
    transport="$(free_port)"
    while [[ "$taken" == *" $transport "* ]]; do transport="$(free_port)"; done
    taken+="$transport "
    TRANSPORT_PORTS[$port]="$transport"
    seeds+=("127.0.0.1:$transport"); masters+=("node-$port")
  done
  CLUSTER_NAME="ppa-local-${NODE_PORTS[0]}-$(date +%s)-$RANDOM"
  SEED_HOSTS="$(IFS=,; echo "${seeds[*]}")"
  INITIAL_MASTERS="$(IFS=,; echo "${masters[*]}")"
  [ -n "$BASE_RUN_DIR" ] && mkdir -p "$BASE_RUN_DIR"
  local launches=() failed=0
  # In parallel: a node's start-up waits for the others to form the cluster.
  for port in "${NODE_PORTS[@]}"; do
    use_node "$port"
    (launch_node fresh "$java_home") &
    launches+=($!)
  done
  for pid in "${launches[@]}"; do wait "$pid" || failed=1; done
  for port in "${NODE_PORTS[@]}"; do
    [ "$failed" = 0 ] || break
    use_node "$port"
    (wait_healthy "$ES_NODES" "$started_at") || failed=1
  done
  if [ "$failed" != 0 ]; then stop_all >/dev/null 2>&1 || true; die "the cluster did not start (see the logs above)"; fi
  use_node "${NODE_PORTS[0]}"
  say "cluster $CLUSTER_NAME up after $((SECONDS - started_at))s: $ES_NODES nodes, version $(es_version_running), heap $ES_HEAP each"
  all_urls
}

# Another local user could create the run root first (it has a fixed name in a world-writable directory) and
# so control what the server reads and writes: use it only when it is a real directory of ours that nobody else
# can write to; create it otherwise (readable, not writable, by others: the ES user must traverse it).
safe_run_root() {
  local dir="$ES_RUN_ROOT"
  [ -L "$dir" ] && die "$dir is a symbolic link: refusing to use it (remove it, or set ES_RUN_ROOT)"
  if [ -e "$dir" ]; then
    [ -d "$dir" ] || die "$dir is not a directory: refusing to use it (remove it, or set ES_RUN_ROOT)"
    [ "$(stat -c %u "$dir")" = "$(id -u)" ] ||
      die "$dir belongs to another user (uid $(stat -c %u "$dir")): refusing to use it (remove it, or set ES_RUN_ROOT)"
    case "$(stat -c %A "$dir")" in
      ?????w???? | ????????w?) die "$dir is writable by group or others: refusing to use it (chmod go-w it, or remove it)" ;;
    esac
  else
    (umask 022 && mkdir -p "$dir") || die "cannot create $dir"
  fi
}

stop() {
  local pid
  if ! pid="$(running_pid)"; then say "not running on port $ES_PORT"; return 0; fi
  kill "$pid" 2>/dev/null || true
  await_exit "$pid"
}

# Waits for a node's process (SIGKILL after 30 s), by the pid read before it was asked to stop: the node deletes
# its pid file early in its shutdown, while it still writes its data directory, so the file says nothing then.
await_exit() {
  local pid="$1" waited=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge 60 ]; then say "still running after 30s: killing"; kill -9 "$pid" 2>/dev/null || true; fi
    sleep 0.5; waited=$((waited + 1))
  done
  rm -f "$PID_FILE"
  say "stopped (pid $pid)"
}

# Every node: all are asked to stop first, so that they shut down together rather than one after another.
stop_all() {
  local port pid
  local -A pids=()
  for port in "${NODE_PORTS[@]}"; do
    use_node "$port"
    if pid="$(running_pid)"; then pids[$port]="$pid"; kill "$pid" 2>/dev/null || true; fi
  done
  for port in "${NODE_PORTS[@]}"; do
    use_node "$port"
    if [ -n "${pids[$port]:-}" ]; then await_exit "${pids[$port]}"; else say "not running on port $ES_PORT"; fi
  done
}

status() {
  local pid port code=0
  for port in "${NODE_PORTS[@]}"; do
    use_node "$port"
    if pid="$(running_pid)"; then
      echo "running: pid $pid, $URL, version $(es_version_running || echo 'not answering')"
    else
      echo "not running (port $ES_PORT, version $ES_VERSION)"; code=3
    fi
  done
  return "$code"
}

# SIGKILL of one node (ES_PORT): what a crash or the OOM killer does. Its data stays for `restart`.
kill_node() {
  local pid
  pid="$(running_pid)" || die "no node of ours is running on port $ES_PORT"
  kill -9 "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  say "killed (SIGKILL) pid $pid on port $ES_PORT"
}

# Starts one stopped or killed node (ES_PORT) again on the data it had, in the cluster it was part of.
restart_node() {
  local pid
  if pid="$(running_pid)"; then die "the node on port $ES_PORT is running (pid $pid)"; fi
  [ -d "$ES_RUN_DIR/data" ] || die "no run directory for port $ES_PORT ($ES_RUN_DIR): start it first"
  port_taken && die "port $ES_PORT is taken by another process"
  local java_home started_at=$SECONDS
  java_home="$(find_java_home)"
  launch_node keep "$java_home"
  wait_healthy "" "$started_at"
  say "node on port $ES_PORT back after $((SECONDS - started_at))s"
  echo "$URL"
}

case "${1:-}" in
  start) start ;;
  stop)
    stop_all
    if [ "${2:-}" = "--purge" ]; then
      for port in "${NODE_PORTS[@]}"; do use_node "$port"; rm -rf "$ES_RUN_DIR"; say "deleted $ES_RUN_DIR"; done
    fi
    ;;
  status) status ;;
  url) all_urls ;;
  fetch) find_java_home >/dev/null; fetch; say "ready in $ES_HOME" ;;
  kill) kill_node ;;
  restart) restart_node ;;
  *) echo "usage: $0 start|stop [--purge]|status|url|fetch|kill|restart" >&2; exit 2 ;;
esac
