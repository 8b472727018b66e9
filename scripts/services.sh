#!/usr/bin/env bash
# Starts and stops throwaway Redis and Postgres servers for the integration tests.
# Installs nothing: a server whose binaries are missing is reported on a MISSING= line.
#
#   scripts/services.sh start        prints REDIS_URL=, POSTGRES_URL=, STATE_DIR= (and MISSING=)
#   scripts/services.sh stop DIR     stops exactly the servers started into DIR, by pid, and
#                                    removes DIR
#
# Output lines are KEY=VALUE, so `eval "$(scripts/services.sh start)"` works in a shell.
# Servers listen on 127.0.0.1 only, on ports the kernel reported free; data lives in a temp dir.
set -Eeuo pipefail

MARKER=.colloquy-services

log() { echo "services: $*" >&2; }

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'
}

# wait_for CMD...: retries CMD for about 10 s.
wait_for() {
  local i
  for i in $(seq 1 100); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  return 1
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# redis_up PORT PIDFILE: the server listens and has written its pidfile (it binds first).
redis_up() { port_open "$1" && [ -s "$2" ]; }

# redis_pid DIR: the pid of the redis-server started in DIR, from its pidfile or its log.
redis_pid() {
  if [ -s "$1/redis.pid" ]; then head -n 1 "$1/redis.pid"; return; fi
  sed -n 's/.*pid=\([0-9][0-9]*\).*/\1/p' "$1/redis.log" 2>/dev/null | tail -n 1
}

start_redis() {
  local dir="$STATE_DIR/redis" port attempt pid
  mkdir -p "$dir"
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    rm -f "$dir/redis.pid" "$dir/redis.log"
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save '' --appendonly no \
      --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" >&2
    if wait_for redis_up "$port" "$dir/redis.pid"; then
      cp "$dir/redis.pid" "$STATE_DIR/redis.pid"
      echo "REDIS_URL=redis://127.0.0.1:$port"
      return 0
    fi
    log "redis-server did not start on port $port (attempt $attempt); log: $(tail -n 3 "$dir/redis.log" 2>/dev/null)"
    pid=$(redis_pid "$dir")
    if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
  log "could not start redis-server; see $dir/redis.log"
  return 1
}

start_postgres() {
  local bin="$1" dir="$STATE_DIR/postgres" port attempt
  local as=()
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    # Postgres refuses to run as root: run it as the postgres user in a dir that user owns.
    if ! command -v runuser >/dev/null 2>&1 || ! id postgres >/dev/null 2>&1; then
      log "running as root, Postgres must run as the 'postgres' user through runuser (util-linux); install the postgresql package (it creates that user) or run the tests as a non-root user"
      return 1
    fi
    chmod 755 "$STATE_DIR"
    chown postgres "$dir"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U colloquy -E UTF8 --locale=C --no-sync \
    >"$dir/initdb.log" 2>&1 || { log "initdb failed: $(tail -n 5 "$dir/initdb.log")"; return 1; }
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    if "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 30 start \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      >>"$dir/pg_ctl.log" 2>&1; then
      head -n 1 "$dir/data/postmaster.pid" >"$STATE_DIR/postgres.pid"
      echo "POSTGRES_URL=postgres://colloquy@127.0.0.1:$port/postgres"
      return 0
    fi
    log "postgres did not start on port $port (attempt $attempt); log: $(tail -n 3 "$dir/postgres.log" 2>/dev/null)"
    # pg_ctl gave up waiting: make sure no half-started server is left behind.
    if [ -s "$dir/data/postmaster.pid" ]; then kill -KILL "$(head -n 1 "$dir/data/postmaster.pid")" 2>/dev/null || true; fi
  done
  log "could not start postgres; see $dir/postgres.log"
  return 1
}

# signal_pid FILE SIGNAL: sends SIGNAL to the pid recorded in FILE, if that process is alive.
signal_pid() {
  local file="$1" signal="$2"
  [ -s "$file" ] || return 0
  kill "-$signal" "$(head -n 1 "$file")" 2>/dev/null || true
}

# await_pid FILE: waits for the pid recorded in FILE to exit (SIGKILL after 10 s), drops FILE.
await_pid() {
  local file="$1" pid
  [ -s "$file" ] || return 0
  pid=$(head -n 1 "$file")
  if ! wait_for bash -c "! kill -0 $pid"; then
    log "pid $pid did not exit; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

cmd_start() {
  local pgbin=""
  STATE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/colloquy-services.XXXXXX")
  touch "$STATE_DIR/$MARKER"
  echo "STATE_DIR=$STATE_DIR"
  # On any failure, stop what was already started so that nothing is left running.
  trap 'cmd_stop "$STATE_DIR" >/dev/null 2>&1 || true' ERR
  trap 'cmd_stop "$STATE_DIR" >/dev/null 2>&1 || true; exit 130' INT TERM HUP
  if command -v redis-server >/dev/null 2>&1; then
    start_redis
  else
    echo "MISSING=redis-server"
  fi
  pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$pgbin" ] && [ -x "$pgbin/initdb" ]; then
    start_postgres "$pgbin"
  else
    echo "MISSING=postgresql"
  fi
  trap - ERR INT TERM HUP
}

cmd_stop() {
  local dir="${1:-}"
  if [ -z "$dir" ] || [ ! -f "$dir/$MARKER" ]; then
    log "stop needs the STATE_DIR printed by start (got '${dir}'); refusing to touch it"
    return 2
  fi
  # Redis: SIGTERM shuts down without saving (--save ''). Postgres: SIGINT is a fast shutdown.
  signal_pid "$dir/redis.pid" TERM
  signal_pid "$dir/postgres.pid" INT
  await_pid "$dir/redis.pid"
  await_pid "$dir/postgres.pid"
  rm -rf "$dir"
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop "${2:-}" ;;
  *)
    echo "usage: $0 start | stop STATE_DIR" >&2
    exit 2
    ;;
esac
