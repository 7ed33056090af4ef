#!/usr/bin/env bash
# Local Elasticsearch for development and tests: the official test distribution from Maven Central,
# run as a dedicated non-root user, single node on 127.0.0.1, security off.
#
#   scripts/elasticsearch.sh start|stop [--purge]|status|url|fetch
#
# `stop --purge` also deletes the node's run directory (data, logs): what the test suite does with the throwaway
# servers it starts on free ports, so that runs leave nothing behind. A plain `stop` keeps them for a look at the logs.
#
# Environment: ES_VERSION (default 8.19.9), ES_PORT (default 9200), ES_HEAP (default 512m),
# ES_CACHE_DIR (unpacked distributions, keyed by version), ES_RUN_ROOT (where the run directories go; must be
# the caller's own and not writable by others), ES_RUN_DIR (data, logs, pid; keyed by version and port),
# ES_JAVA_HOME (a JDK to use instead of the one found), ES_JVM_DIR (where JDKs are looked for, default
# /usr/lib/jvm), ES_START_TIMEOUT_S (default 120).
set -euo pipefail

ES_VERSION="${ES_VERSION:-8.19.9}"
ES_PORT="${ES_PORT:-9200}"
ES_HEAP="${ES_HEAP:-512m}"
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
ES_RUN_DIR="${ES_RUN_DIR:-${ES_RUN_ROOT}/es-${ES_VERSION}-${ES_PORT}}"
ES_HOME="${ES_CACHE_DIR}/${ES_VERSION}/elasticsearch-${ES_VERSION}"
PID_FILE="${ES_RUN_DIR}/es.pid"
URL="http://127.0.0.1:${ES_PORT}"

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
  if command -v ss >/dev/null 2>&1; then
    ss -ltnH "( sport = :$ES_PORT )" 2>/dev/null | grep -q .
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$ES_PORT") 2>/dev/null
  fi
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

start() {
  local pid
  if pid="$(running_pid)"; then
    say "already running (pid $pid) at $URL, version $(es_version_running || echo '?')"
    echo "$URL"; return 0
  fi
  command -v curl >/dev/null 2>&1 || die "curl is not on PATH"
  port_taken && die "port $ES_PORT is taken by another process (set ES_PORT to use another port)"
  local java_home
  java_home="$(find_java_home)"
  case "$ES_RUN_DIR" in "$ES_RUN_ROOT"/*) safe_run_root ;; esac
  local started_at=$SECONDS
  fetch
  ensure_user
  rm -rf "$ES_RUN_DIR"
  mkdir -p "$ES_RUN_DIR/data" "$ES_RUN_DIR/logs" "$ES_RUN_DIR/tmp"
  # ES writes its keystore into its config directory: give each run a private, writable copy.
  cp -r "$ES_HOME/config" "$ES_RUN_DIR/config"
  local security=(-E xpack.security.enabled=false)
  if [ "$ES_SECURITY" = true ]; then
    [ -n "${ES_ELASTIC_PASSWORD:-}" ] || die "ES_SECURITY=true needs ES_ELASTIC_PASSWORD (the password of the user elastic)"
    printf '%s' "$ES_ELASTIC_PASSWORD" |
      ES_JAVA_HOME="$java_home" ES_PATH_CONF="$ES_RUN_DIR/config" "$ES_HOME/bin/elasticsearch-keystore" add -x -f bootstrap.password >/dev/null ||
      die "could not write the bootstrap password into the keystore"
    security=(-E xpack.security.enabled=true -E xpack.security.http.ssl.enabled=false
      -E xpack.security.transport.ssl.enabled=false -E xpack.security.authc.api_key.enabled=true)
  fi
  if [ "$(id -u)" = 0 ]; then
    # The run directory's parents must be traversable by the ES user.
    chmod a+x "$(dirname "$ES_RUN_DIR")"
    chown -R "$ES_USER" "$ES_RUN_DIR"
  fi
  say "starting $ES_VERSION on $URL with Java $(java_major "$java_home") ($java_home)"
  as_es_user env ES_JAVA_HOME="$java_home" ES_PATH_CONF="$ES_RUN_DIR/config" ES_TMPDIR="$ES_RUN_DIR/tmp" \
    ES_JAVA_OPTS="-Xms$ES_HEAP -Xmx$ES_HEAP ${ES_EXTRA_JAVA_OPTS:-}" \
    "$ES_HOME/bin/elasticsearch" -d -p "$PID_FILE" \
    -E discovery.type=single-node -E network.host=127.0.0.1 -E http.port="$ES_PORT" \
    -E path.data="$ES_RUN_DIR/data" -E path.logs="$ES_RUN_DIR/logs" \
    -E cluster.routing.allocation.disk.threshold_enabled=false \
    -E action.destructive_requires_name=false \
    "${security[@]}" >"$ES_RUN_DIR/logs/startup.out" 2>&1 ||
    { tail -n 30 "$ES_RUN_DIR/logs/startup.out" >&2; die "Elasticsearch failed to start (see $ES_RUN_DIR/logs)"; }
  local waited=0
  until healthy; do
    if [ "$waited" -ge "$ES_START_TIMEOUT_S" ]; then
      tail -n 30 "$ES_RUN_DIR/logs/"*.log >&2 2>/dev/null || true
      stop >/dev/null 2>&1 || true
      die "Elasticsearch did not answer _cluster/health within ${ES_START_TIMEOUT_S}s"
    fi
    if [ "$waited" -ge 5 ] && ! running_pid >/dev/null; then
      tail -n 30 "$ES_RUN_DIR/logs/startup.out" "$ES_RUN_DIR/logs/"*.log >&2 2>/dev/null || true
      die "Elasticsearch exited during start-up (see $ES_RUN_DIR/logs)"
    fi
    sleep 1; waited=$((waited + 1))
  done
  say "up after $((SECONDS - started_at))s: version $(es_version_running)"
  echo "$URL"
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
  local waited=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge 60 ]; then say "still running after 30s: killing"; kill -9 "$pid" 2>/dev/null || true; fi
    sleep 0.5; waited=$((waited + 1))
  done
  rm -f "$PID_FILE"
  say "stopped (pid $pid)"
}

status() {
  local pid
  if pid="$(running_pid)"; then
    echo "running: pid $pid, $URL, version $(es_version_running || echo 'not answering')"
  else
    echo "not running (port $ES_PORT, version $ES_VERSION)"; return 3
  fi
}

case "${1:-}" in
  start) start ;;
  stop)
    stop
    if [ "${2:-}" = "--purge" ]; then rm -rf "$ES_RUN_DIR"; say "deleted $ES_RUN_DIR"; fi
    ;;
  status) status ;;
  url) echo "$URL" ;;
  fetch) find_java_home >/dev/null; fetch; say "ready in $ES_HOME" ;;
  *) echo "usage: $0 start|stop [--purge]|status|url|fetch" >&2; exit 2 ;;
esac
