#!/usr/bin/env bash
# Load test of a real `stratum serve` (see bench/README.md).
#
#   bash bench/load.sh                          # PostgreSQL (default URL below)
#   DATABASE_URL=sqlite bash bench/load.sh      # the embedded SQLite file
#
# Builds the binary, seeds a copy of examples/blog with ARTICLES articles on a
# fresh database, starts the server, measures time to ready, runs wrk against
# four endpoints while sampling the server's RSS, stops it with SIGTERM and
# prints a markdown table. All traffic goes to 127.0.0.1.
#
# Settings (environment):
#   DATABASE_URL  postgres://... (its database is dropped and created again;
#                 the name must contain "bench") or "sqlite"
#                 default postgres://postgres@127.0.0.1:5432/stratum_bench?sslmode=disable
#   ARTICLES      articles to seed (10000)
#   DURATION      seconds of each measured wrk run (15)
#   WARMUP        seconds of an unmeasured wrk run before each (3)
#   THREADS CONNS wrk -t and -c (2, 32)
#   PORT          server port (1339)
#   STATS_WAIT    seconds to wait before reading PostgreSQL's statement counters
#                 (11: an idle backend flushes them within 10 s)
#   KEEP_DB=1     skip drop/create/seed and reuse the database of a previous run
#                 (PostgreSQL only; SQLite always seeds a fresh temp dir)
#   GOMAXPROCS, GOGC, GOMEMLIMIT are passed to the server as usual.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/stratum_bench?sslmode=disable}"
ARTICLES="${ARTICLES:-10000}"
DURATION="${DURATION:-15}"
WARMUP="${WARMUP:-3}"
THREADS="${THREADS:-2}"
CONNS="${CONNS:-32}"
PORT="${PORT:-1339}"
STATS_WAIT="${STATS_WAIT:-11}"
WRK="${WRK:-/usr/bin/wrk}"
BIN=/tmp/stratum
BASE="http://127.0.0.1:${PORT}"

die() { printf 'load.sh: %s\n' "$*" >&2; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

for n in ARTICLES DURATION WARMUP THREADS CONNS PORT STATS_WAIT; do
  [[ "${!n}" =~ ^[0-9]+$ ]] || die "$n must be a number"
done
command -v "$WRK" >/dev/null || die "wrk not found at $WRK"
command -v curl >/dev/null || die "curl not found"

# ---- build ----
echo "building $BIN" >&2
(cd "$ROOT" && go build -o "$BIN" ./cmd/stratum)

TMP="$(mktemp -d /tmp/stratum-bench.XXXXXX)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
cp -r "$ROOT/examples/blog" "$TMP/project"
PROJECT="$TMP/project"

# ---- database ----
if [ "$DATABASE_URL" = "sqlite" ]; then
  DB=sqlite
  unset DATABASE_URL # stratum then uses PROJECT/.tmp/data.db
  DBVERSION="SQLite (modernc.org/sqlite, pure Go)"
else
  DB=postgres
  case "$DATABASE_URL" in postgres://*|postgresql://*) ;; *) die "DATABASE_URL must be postgres://... or sqlite" ;; esac
  url_noq="${DATABASE_URL%%\?*}"
  query=""
  [ "$url_noq" != "$DATABASE_URL" ] && query="?${DATABASE_URL#*\?}"
  dbname="${url_noq##*/}"
  [[ "$dbname" =~ ^[a-z_][a-z0-9_]*$ ]] || die "database name '$dbname' must be [a-z_][a-z0-9_]*"
  [[ "$dbname" == *bench* ]] || die "refusing to drop '$dbname': the bench database's name must contain 'bench'"
  ADMIN_URL="${url_noq%/*}/postgres${query}"
  psql_q() { psql "$1" -v ON_ERROR_STOP=1 -qtAc "$2"; }
  DBVERSION="$(psql_q "$ADMIN_URL" 'SHOW server_version' | head -n1)"
  DBVERSION="PostgreSQL ${DBVERSION%% *}"
  if [ "${KEEP_DB:-}" != "1" ]; then
    echo "creating database $dbname" >&2
    psql_q "$ADMIN_URL" "DROP DATABASE IF EXISTS $dbname WITH (FORCE)"
    psql_q "$ADMIN_URL" "CREATE DATABASE $dbname"
  fi
  export DATABASE_URL
fi

SEED_S="-"
if [ "$DB" = "sqlite" ] || [ "${KEEP_DB:-}" != "1" ]; then
  echo "seeding $ARTICLES articles ($DB)" >&2
  t0=$(now_ms)
  "$BIN" seed --dir "$PROJECT" --articles "$ARTICLES" >&2
  SEED_S="$(( ($(now_ms) - t0) / 1000 ))"
fi
if [ "$DB" = "postgres" ]; then
  psql_q "$DATABASE_URL" 'VACUUM ANALYZE' >/dev/null
fi

# ---- start and time to ready ----
if curl -s --max-time 1 -o /dev/null "$BASE/_health"; then die "something already answers on port $PORT"; fi
LOG="$TMP/server.log"
t0=$(now_ms)
"$BIN" serve --dir "$PROJECT" --host 127.0.0.1 --port "$PORT" 2>"$LOG" &
SERVER_PID=$!
READY_MS=""
for _ in $(seq 1 2000); do # at most ~20 s
  if curl -s --max-time 1 -o /dev/null -w '%{http_code}' "$BASE/_health" 2>/dev/null | grep -q '^200$'; then
    READY_MS=$(( $(now_ms) - t0 ))
    break
  fi
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$LOG" >&2; die "server exited"; }
  sleep 0.005
done
[ -n "$READY_MS" ] || { cat "$LOG" >&2; die "server not ready within 20 s"; }
SELF_STARTUP="$(grep -o 'startup=[^ ]*' "$LOG" | head -n1 | cut -d= -f2)"
IDLE_RSS_KB="$(ps -o rss= -p "$SERVER_PID" | tr -d ' ')"
echo "ready in ${READY_MS} ms (server's own log: ${SELF_STARTUP:-?}), idle RSS $((IDLE_RSS_KB / 1024)) MB" >&2

# ---- endpoints ----
LIST_JSON="$(curl -s --max-time 10 "$BASE/api/articles?pagination%5BpageSize%5D=1")"
DOC_ID="$(printf '%s' "$LIST_JSON" | grep -o '"documentId":"[a-z0-9]*"' | head -n1 | cut -d'"' -f4)"
[ -n "$DOC_ID" ] || die "no article in the list: $LIST_JSON"
# Brackets percent-encoded: wrk and curl pass them through untouched.
NAMES=("list of 25 (with count)" "one document" "filtered + sorted list" "populate author,category,tags")
PATHS=(
  "/api/articles"
  "/api/articles/$DOC_ID"
  "/api/articles?filters%5Bviews%5D%5B%24gt%5D=500&sort=rating:desc"
  "/api/articles?populate%5Bauthor%5D=true&populate%5Bcategory%5D=true&populate%5Btags%5D=true"
)
for p in "${PATHS[@]}"; do
  code="$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' "$BASE$p")"
  [ "$code" = 200 ] || die "GET $p answered $code"
done

# SQL statements per request on PostgreSQL: every statement outside a
# transaction block is one transaction, so xact_commit counts them.
xacts() {
  [ "$DB" = postgres ] || { echo 0; return; }
  psql_q "$DATABASE_URL" "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
}

ROWS=()
for i in "${!PATHS[@]}"; do
  url="$BASE${PATHS[$i]}"
  if [ "$WARMUP" -gt 0 ]; then
    "$WRK" -t"$THREADS" -c"$CONNS" -d"${WARMUP}s" "$url" >/dev/null
  fi
  [ "$DB" = postgres ] && sleep "$STATS_WAIT" # let idle backends flush their pgstat counters
  x0="$(xacts)"
  out="$TMP/wrk.$i"
  "$WRK" -t"$THREADS" -c"$CONNS" -d"${DURATION}s" --latency "$url" >"$out" &
  WRK_PID=$!
  max_rss=0
  for _ in $(seq 1 $(( (DURATION + 30) * 5 ))); do # bounded: 5 samples a second
    kill -0 "$WRK_PID" 2>/dev/null || break
    rss="$(ps -o rss= -p "$SERVER_PID" | tr -d ' ' || true)"
    [ -n "$rss" ] && [ "$rss" -gt "$max_rss" ] && max_rss=$rss
    sleep 0.2
  done
  wait "$WRK_PID" || die "wrk failed on $url: $(cat "$out")"
  [ "$DB" = postgres ] && sleep "$STATS_WAIT"
  x1="$(xacts)"
  rps="$(awk '/^Requests\/sec:/ {print $2}' "$out")"
  total="$(awk '/requests in/ {print $1}' "$out")"
  p50="$(awk '$1 == "50%" {print $2}' "$out")"
  p99="$(awk '$1 == "99%" {print $2}' "$out")"
  errs="$(awk '/Non-2xx/ {print $NF} /Socket errors/ {print $0}' "$out" | paste -sd' ')"
  sql="-"
  if [ "$DB" = postgres ] && [ -n "$total" ] && [ "$total" -gt 0 ]; then
    sql="$(awk -v a="$x0" -v b="$x1" -v n="$total" 'BEGIN {printf "%.2f", (b - a) / n}')"
  fi
  ROWS+=("| ${NAMES[$i]} | $DB | ${rps:-?} | ${p50:-?} | ${p99:-?} | $((max_rss / 1024)) | $sql | ${errs:-0} |")
  echo "${NAMES[$i]}: ${rps:-?} req/s p50 ${p50:-?} p99 ${p99:-?} max RSS $((max_rss / 1024)) MB sql/req $sql" >&2
done

# ---- stop ----
t0=$(now_ms)
kill -TERM "$SERVER_PID"
STOPPED=""
for _ in $(seq 1 200); do # at most 20 s
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then STOPPED=1; break; fi
  sleep 0.1
done
[ -n "$STOPPED" ] || die "server did not stop within 20 s of SIGTERM"
wait "$SERVER_PID" 2>/dev/null && EXIT=0 || EXIT=$?
STOP_MS=$(( $(now_ms) - t0 ))
SERVER_PID=""

# ---- report ----
echo
echo "### $DBVERSION, $ARTICLES articles, wrk -t$THREADS -c$CONNS -d${DURATION}s, $(nproc) CPUs"
echo
echo "| endpoint | DB | req/s | p50 | p99 | max RSS (MB) | SQL/req | errors |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${ROWS[@]}"
echo
echo "- seed: ${SEED_S} s; time to ready: ${READY_MS} ms from exec to the first 200 on /_health (server's own log: ${SELF_STARTUP:-?}); idle RSS after start: $((IDLE_RSS_KB / 1024)) MB"
echo "- SIGTERM to exit: ${STOP_MS} ms, exit status ${EXIT}"
