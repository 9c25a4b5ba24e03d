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
#   PROFILE=1     serve with bench/profserve (the same stack plus pprof on
#                 127.0.0.1:6061), take a CPU profile of each measured run into
#                 PROFILE_DIR (/tmp/stratum-prof-<db>) and print its top entries
#   QUIET_WAIT    before each run, wait up to this many seconds for the machine
#                 to be idle (under 10% busy for a second) (60): other work on a
#                 2-core box skews every figure; the CPU column shows what ran
#   RETRIES       measure an endpoint again, up to this many times (2), when
#   BUSY_OK       other programs took more than BUSY_OK % (10) of the machine
#                 during the run; the run with the least interference is kept
#   SRC           source tree to build (default: the one holding this script)
#   BIN           where to build the server binary (/tmp/stratum)
#   KEEP_DB=1     skip drop/create/seed and reuse the database of a previous run
#                 (PostgreSQL only; SQLite always seeds a fresh temp dir)
#   ENGINE_SEED   at most this many articles are written through the engine
#                 (`stratum seed`, 10000); ARTICLES above it are copies of
#                 those made in SQL (psql, or sqlite3 on SQLite: new document ids, slugs, titles,
#                 views and ratings; same relations and components), so that
#                 100,000 or 1,000,000 articles take minutes, not hours.
#                 ARTICLES must then be a multiple of ENGINE_SEED.
#   ONLY          space-separated slugs of the rows to measure (default: all):
#                 list one filtered populate nocount populate2 deep relsort popall graphql
#                 deepauthor
#                 create (POSTs new articles with an API token; on PostgreSQL
#                 they are deleted again when the script ends)
#   GOMAXPROCS, GOGC, GOMEMLIMIT are passed to the server as usual.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# SRC: the source tree to build and take examples/blog from (default: this
# one). Point it at a snapshot (git archive HEAD | tar -x -C DIR) to measure
# a fixed commit while the working tree changes.
SRC="${SRC:-$ROOT}"
DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/stratum_bench?sslmode=disable}"
ARTICLES="${ARTICLES:-10000}"
ENGINE_SEED="${ENGINE_SEED:-10000}"
ONLY="${ONLY:-}"
DURATION="${DURATION:-15}"
WARMUP="${WARMUP:-3}"
THREADS="${THREADS:-2}"
CONNS="${CONNS:-32}"
PORT="${PORT:-1339}"
STATS_WAIT="${STATS_WAIT:-11}"
QUIET_WAIT="${QUIET_WAIT:-60}"
RETRIES="${RETRIES:-2}"
BUSY_OK="${BUSY_OK:-10}"
WRK="${WRK:-/usr/bin/wrk}"
BIN="${BIN:-/tmp/stratum}"
PROFILE="${PROFILE:-}"
PPROF_ADDR=127.0.0.1:6061
BASE="http://127.0.0.1:${PORT}"

die() { printf 'load.sh: %s\n' "$*" >&2; exit 1; }
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

for n in ARTICLES ENGINE_SEED DURATION WARMUP THREADS CONNS PORT STATS_WAIT QUIET_WAIT RETRIES BUSY_OK; do
  [[ "${!n}" =~ ^[0-9]+$ ]] || die "$n must be a number"
done
command -v "$WRK" >/dev/null || die "wrk not found at $WRK"
command -v curl >/dev/null || die "curl not found"

# ---- build ----
echo "building $BIN" >&2
(cd "$SRC" && go build -o "$BIN" ./cmd/stratum)
SERVE=("$BIN" serve)
if [ "$PROFILE" = 1 ]; then
  (cd "$SRC" && go build -o /tmp/stratum-prof ./bench/profserve)
  SERVE=(/tmp/stratum-prof --pprof "$PPROF_ADDR")
fi

TMP="$(mktemp -d /tmp/stratum-bench.XXXXXX)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  # What the create row wrote goes again, also when the script stops early
  # (PostgreSQL keeps its database between runs with KEEP_DB=1): the
  # articles, the table's counters made again, the token.
  if [ -n "${TOKEN_NAME:-}" ] && [ "${DB:-}" = postgres ]; then
    psql_q "$DATABASE_URL" "DELETE FROM articles WHERE large->>'summary' = 'written by bench/load.sh'" >/dev/null || true
    psql_q "$DATABASE_URL" "DELETE FROM stratum_counts WHERE tbl = 'articles'; INSERT INTO stratum_counts (tbl, published, locale, n) SELECT 'articles', published_at IS NOT NULL, locale, COUNT(*) FROM articles GROUP BY 2, 3" >/dev/null || true
    psql_q "$DATABASE_URL" "DELETE FROM stratum_api_tokens WHERE name = '$TOKEN_NAME'" >/dev/null || true
    psql_q "$DATABASE_URL" "VACUUM ANALYZE articles" >/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
cp -r "$SRC/examples/blog" "$TMP/project"
PROJECT="$TMP/project"

# ---- database ----
if [ "$DATABASE_URL" = "sqlite" ]; then
  DB=sqlite
  unset DATABASE_URL # stratum then uses PROJECT/.tmp/data.db
  DBVERSION="SQLite (modernc.org/sqlite, pure Go)"
else
  DB=postgres
  case "$DATABASE_URL" in postgres://*|postgresql://*) ;; *) die "DATABASE_URL must be postgres://... or sqlite" ;; esac
  db_parts "$DATABASE_URL"
  DBVERSION="$(psql_q "$ADMIN_URL" 'SHOW server_version' | head -n1)"
  DBVERSION="PostgreSQL ${DBVERSION%% *}"
  [ "${KEEP_DB:-}" = "1" ] || fresh_db "$DATABASE_URL"
  export DATABASE_URL
fi

SEED_S="-"
if [ "$DB" = "sqlite" ] || [ "${KEEP_DB:-}" != "1" ]; then
  n_engine=$ARTICLES
  if [ "$ARTICLES" -gt "$ENGINE_SEED" ]; then
    [ "$DB" = postgres ] || command -v sqlite3 >/dev/null || die "ARTICLES above ENGINE_SEED ($ENGINE_SEED) on SQLite needs the sqlite3 command (copies are made in SQL)"
    [ $((ARTICLES % ENGINE_SEED)) -eq 0 ] || die "ARTICLES must be a multiple of ENGINE_SEED ($ENGINE_SEED)"
    n_engine=$ENGINE_SEED
  fi
  echo "seeding $n_engine articles through the engine ($DB)" >&2
  t0=$(now_ms)
  if [ "$DB" = postgres ]; then
    # The seed's own connections only: a commit need not wait for the WAL
    # flush (halves the seed's time; a crash would lose the last few).
    sep='?'; [[ "$DATABASE_URL" == *\?* ]] && sep='&'
    DATABASE_URL="${DATABASE_URL}${sep}synchronous_commit=off" "$BIN" seed --dir "$PROJECT" --articles "$n_engine" >&2
  else
    "$BIN" seed --dir "$PROJECT" --articles "$n_engine" >&2
  fi
  if [ "$ARTICLES" -gt "$n_engine" ]; then
    # Copy set g of every engine-made row (draft and published alike): a new
    # document id (the same for a document's two rows), unique slug and
    # title, views and rating spread as the seed spreads them. One statement
    # per copy set, each its own transaction.
    if [ "$DB" = postgres ]; then
      maxid="$(psql_q "$DATABASE_URL" "SELECT max(id) FROM articles")"
      for g in $(seq 1 $((ARTICLES / n_engine - 1))); do
        psql_q "$DATABASE_URL" "SET synchronous_commit = off;
          INSERT INTO articles (document_id, locale, published_at, created_at, updated_at, data, large, extra)
          SELECT substr(md5(a.document_id || ':$g'), 1, 24), a.locale, a.published_at, a.created_at, a.updated_at,
            a.data || jsonb_build_object('title', (a.data->>'title') || ' c$g', 'slug', (a.data->>'slug') || '-c$g',
              'views', (hashtext(a.document_id || ':v$g') & 1023) % 1000,
              'rating', round(((hashtext(a.document_id || ':r$g') & 1023) % 50) / 10.0, 1)),
            a.large, a.extra
          FROM articles a WHERE a.id <= $maxid ORDER BY a.id" >/dev/null
        echo "seed: copy set $g: $(( (g + 1) * n_engine )) articles" >&2
      done
      # The exact row counters are recounted at the next start.
      psql_q "$DATABASE_URL" "DELETE FROM stratum_counts WHERE tbl = 'articles'" >/dev/null
    else
      # The same on the SQLite file: a document id from the original's and
      # the set's number (the draft and published rows share it), views and
      # rating spread by a multiplicative hash of the row and the set.
      dbfile="$PROJECT/.tmp/data.db"
      maxid="$(sqlite3 "$dbfile" "SELECT max(id) FROM articles")"
      for g in $(seq 1 $((ARTICLES / n_engine - 1))); do
        sqlite3 "$dbfile" "PRAGMA synchronous = OFF; BEGIN;
          INSERT INTO articles (document_id, locale, published_at, created_at, updated_at, data, large, extra)
          SELECT substr(a.document_id, 1, 19) || printf('%05d', $g), a.locale, a.published_at, a.created_at, a.updated_at,
            json_set(a.data, '\$.title', json_extract(a.data, '\$.title') || ' c$g', '\$.slug', json_extract(a.data, '\$.slug') || '-c$g',
              '\$.views', (a.id * 2654435761 + $g * 40503) % 1000,
              '\$.rating', ((a.id * 7919 + $g * 104729) % 50) / 10.0),
            a.large, a.extra
          FROM articles a WHERE a.id <= $maxid ORDER BY a.id;
          COMMIT;" >/dev/null
        echo "seed: copy set $g: $(( (g + 1) * n_engine )) articles" >&2
      done
      sqlite3 "$dbfile" "DELETE FROM stratum_counts WHERE tbl = 'articles'; ANALYZE;" >/dev/null
    fi
  fi
  SEED_S="$(( ($(now_ms) - t0) / 1000 ))"
fi
if [ "$DB" = "postgres" ]; then
  psql_q "$DATABASE_URL" 'VACUUM ANALYZE' >/dev/null
fi

# ---- start and time to ready ----
if curl -s --max-time 1 -o /dev/null "$BASE/_health"; then die "something already answers on port $PORT"; fi
LOG="$TMP/server.log"
t0=$(now_ms)
"${SERVE[@]}" --dir "$PROJECT" --host 127.0.0.1 --port "$PORT" 2>"$LOG" &
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
# BODIES[i], when set, makes row i a POST of that JSON body (GraphQL).
declare -a BODIES=()
SLUGS=(list one filtered populate)
if [ "${EXTRA:-1}" = 1 ]; then
  NAMES+=("list of 25 without count" "populate category,tags" "deep filter (category name)" "sort on a relation field" "populate=*" "GraphQL: 25 articles + category + tags")
  PATHS+=(
    "/api/articles?pagination%5BwithCount%5D=false"
    "/api/articles?populate%5Bcategory%5D=true&populate%5Btags%5D=true"
    "/api/articles?filters%5Bcategory%5D%5Bname%5D%5B%24eq%5D=Engineering"
    "/api/articles?sort=category.name:asc"
    "/api/articles?populate=%2A"
    "/graphql"
  )
  SLUGS+=(nocount populate2 deep relsort popall graphql)
  BODIES[9]='{"query":"{ articles(pagination:{pageSize:25}, sort:[\"title\"]) { data { id attributes { title views category { data { id attributes { name } } } tags { data { id attributes { name } } } } } meta { pagination { total } } } }"}'
  # The issue's relation filter: one author's articles, by the author's name.
  AUTHOR_NAME="$(curl -s --max-time 10 "$BASE/api/articles?pagination%5BpageSize%5D=1&populate%5Bauthor%5D=true" | grep -o '"name": *"[A-Za-z ]*"' | head -n1 | sed 's/.*: *"\(.*\)"/\1/')"
  [ -n "$AUTHOR_NAME" ] || die "no author in the list"
  NAMES+=("deep filter (author name)")
  PATHS+=("/api/articles?filters%5Bauthor%5D%5Bname%5D%5B%24eq%5D=${AUTHOR_NAME// /%20}")
  SLUGS+=(deepauthor)
  # Creates last: they add articles (removed again at the end on PostgreSQL).
  NAMES+=("create an article (API token)")
  PATHS+=("/api/articles")
  SLUGS+=(create)
fi
# The create row: a full-access API token, and a Lua script that sends a
# new article each time (title, numbers, a component, a category and two
# tags by documentId), unique per run, thread and request.
CREATE_I=""
for i in "${!SLUGS[@]}"; do [ "${SLUGS[$i]}" = create ] && CREATE_I=$i; done
if [ -n "$CREATE_I" ] && { [ -z "$ONLY" ] || [[ " $ONLY " == *" create "* ]]; }; then
  TOKEN_NAME="load-$$-$(now_ms)"
  TOKEN="$("$BIN" token create --name "$TOKEN_NAME" --type full-access --dir "$PROJECT" 2>/dev/null)" || die "token create failed"
  CAT_ID="$(curl -s --max-time 10 "$BASE/api/categories?pagination%5BpageSize%5D=1" | grep -o '"documentId":"[a-z0-9]*"' | head -n1 | cut -d'"' -f4 || true)"
  TAG_IDS="$(curl -s --max-time 10 "$BASE/api/tags?pagination%5BpageSize%5D=2" | grep -o '"documentId":"[a-z0-9]*"' | cut -d'"' -f4 | paste -sd' ' || true)"
  read -r TAG1 TAG2 <<<"$TAG_IDS"
  [ -n "$CAT_ID" ] && [ -n "${TAG2:-}" ] || die "no category or tags to relate new articles to"
  CREATE_LUA="$TMP/create.lua"
  cat >"$CREATE_LUA" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $TOKEN"
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
request = function()
  n = n + 1
  local title = "Load $$ $(now_ms) " .. tid .. " " .. n
  local body = '{"data":{"title":"' .. title .. '","summary":"written by bench/load.sh","views":' .. n ..
    ',"rating":4.5,"kind":"news","seo":{"metaTitle":"' .. title .. '"},"category":"$CAT_ID","tags":["$TAG1","$TAG2"]}}'
  return wrk.format(nil, nil, nil, body)
end
LUA
  code="$(curl -s --max-time 10 -o "$TMP/check.create" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "{\"data\":{\"title\":\"Load check $$\",\"summary\":\"written by bench/load.sh\",\"category\":\"$CAT_ID\",\"tags\":[\"$TAG1\"]}}" "$BASE/api/articles")"
  [ "$code" = 200 ] || [ "$code" = 201 ] || die "POST /api/articles answered $code: $(head -c 300 "$TMP/check.create")"
fi
# wrk_args I: the extra wrk arguments of row I (a Lua script for a POST).
wrk_args() {
  local i=$1
  if [ "$i" = "$CREATE_I" ]; then printf '%s\n' -s "$CREATE_LUA"; return 0; fi
  [ -n "${BODIES[$i]:-}" ] || return 0
  local lua="$TMP/body.$i.lua"
  if [ ! -f "$lua" ]; then
    printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [==[%s]==]\n' "${BODIES[$i]}" >"$lua"
  fi
  printf '%s\n' -s "$lua"
}
for i in "${!PATHS[@]}"; do
  p="${PATHS[$i]}"
  [ "$i" = "$CREATE_I" ] && continue # checked above
  if [ -n "${BODIES[$i]:-}" ]; then
    code="$(curl -s --max-time 10 -o "$TMP/check.$i" -w '%{http_code}' -H 'Content-Type: application/json' -d "${BODIES[$i]}" "$BASE$p")"
    grep -q '"errors"' "$TMP/check.$i" && die "POST $p answered errors: $(head -c 300 "$TMP/check.$i")"
  else
    code="$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' "$BASE$p")"
  fi
  [ "$code" = 200 ] || die "$p answered $code"
done

# SQL statements per request on PostgreSQL: every statement outside a
# transaction block is one transaction, so xact_commit counts them.
xacts() {
  [ "$DB" = postgres ] || { echo 0; return; }
  psql_q "$DATABASE_URL" "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
}

# CPU time (clock ticks) of the server, of PostgreSQL, of wrk (bash `times`
# in the subshell that runs it) and of the machine, to split the cores
# between them. PostgreSQL is every `postgres` process's own time plus its
# reaped children's (the postmaster's cutime/cstime): backends come and go
# (the server's pool closes a connection whose query is cancelled when wrk
# stops), and their time lands there. "other" is the rest: other programs
# on the machine (a concurrent `go test` shows up there).
CLK_TCK="$(getconf CLK_TCK)"
proc_ticks() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{print $12 + $13}' || echo 0; }
pg_ticks() {
  local p s=0 t
  for p in $(pgrep -x postgres || true); do
    t="$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | awk '{print $12 + $13 + $14 + $15}' || echo 0)"
    s=$((s + ${t:-0}))
  done
  echo "$s"
}
PROFILE_DIR="${PROFILE_DIR:-/tmp/stratum-prof-$DB}"
[ "$PROFILE" = 1 ] && mkdir -p "$PROFILE_DIR"
# measure I ATTEMPT: one measured wrk run of endpoint I; sets ROW, LINE
# and OTHER (the share of the machine used by other programs, in %).
measure() {
  local i=$1 url="$BASE${PATHS[$1]}" out="$TMP/wrk.$1.$2"
  local x0 x1 s0 s1 g0 g1 b0 b1 a0 a1 q0 q1 bm am w max_rss rss rps total p50 p99 errs sql cpu
  if [ "$WARMUP" -gt 0 ]; then
    "$WRK" -t"$THREADS" -c"$CONNS" -d"${WARMUP}s" $(wrk_args "$i") "$url" >/dev/null
  fi
  [ "$DB" = postgres ] && sleep "$STATS_WAIT" # let idle backends flush their pgstat counters
  wait_quiet
  x0="$(xacts)"
  s0="$(proc_ticks "$SERVER_PID")"; g0="$(pg_ticks)"; read -r b0 a0 q0 < <(machine_ticks)
  ("$WRK" -t"$THREADS" -c"$CONNS" -d"${DURATION}s" --latency $(wrk_args "$i") "$url" >"$out"; rc=$?; times >"$out.times"; exit $rc) &
  local wrk_pid=$! prof_pid=""
  if [ "$PROFILE" = 1 ] && [ "$DURATION" -gt 4 ]; then
    (sleep 1; curl -s --max-time $((DURATION + 10)) -o "$PROFILE_DIR/${SLUGS[$i]}.pprof" \
      "http://$PPROF_ADDR/debug/pprof/profile?seconds=$((DURATION - 3))") &
    prof_pid=$!
  fi
  max_rss=0
  for _ in $(seq 1 $(( (DURATION + 30) * 5 ))); do # bounded: 5 samples a second
    kill -0 "$wrk_pid" 2>/dev/null || break
    rss="$(ps -o rss= -p "$SERVER_PID" | tr -d ' ' || true)"
    [ -n "$rss" ] && [ "$rss" -gt "$max_rss" ] && max_rss=$rss
    sleep 0.2
  done
  wait "$wrk_pid" || die "wrk failed on $url: $(cat "$out")"
  read -r bm am _ < <(machine_ticks)
  # Queries cancelled when wrk hangs up still run for a moment, and their
  # backends are reaped after: count them too (the window grows by 2 s).
  sleep 2
  s1="$(proc_ticks "$SERVER_PID")"; g1="$(pg_ticks)"; read -r b1 a1 q1 < <(machine_ticks)
  # `times`: second line, children's user and system time as XmY.YYYs.
  w="$(sed -n 2p "$out.times" | awk -v hz="$CLK_TCK" '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%d", t * hz }')"
  [ -n "$prof_pid" ] && { wait "$prof_pid" || true; }
  # Shares of the machine (100 = every core busy) over the run and the 2 s
  # after it; idle is over the run alone.
  read -r cpu OTHER < <(awk -v s=$((s1 - s0)) -v g=$((g1 - g0)) -v w="${w:-0}" -v q=$((q1 - q0)) -v b=$((b1 - b0)) \
    -v a=$((a1 - a0)) -v am=$((am - a0)) -v bm=$((bm - b0)) \
    'BEGIN { if (a <= 0) a = 1; if (am <= 0) am = 1; o = b - s - g - w - q; if (o < 0) o = 0
             printf "%d/%d/%d/%d/%d/%d %d\n", 100*s/a, 100*g/a, 100*w/a, 100*q/a, 100*o/a, 100*(am-bm)/am, 100*o/a }')
  cpu="${cpu//\// / }"
  [ "$DB" = postgres ] && sleep "$STATS_WAIT"
  x1="$(xacts)"
  rps="$(awk '/^Requests\/sec:/ {print $2}' "$out")"
  total="$(awk '/requests in/ {print $1}' "$out")"
  p50="$(awk '$1 == "50%" {print $2}' "$out")"
  p99="$(awk '$1 == "99%" {print $2}' "$out")"
  errs="$(awk '/Non-2xx/ {print "non-2xx " $NF} /Socket errors/ {print $3, $4, $5, $6, $7, $8, $9, $10}' "$out" | paste -sd' ')"
  sql="-"
  if [ "$DB" = postgres ] && [ -n "$total" ] && [ "$total" -gt 0 ]; then
    sql="$(awk -v a="$x0" -v b="$x1" -v n="$total" 'BEGIN {printf "%.2f", (b - a) / n}')"
  fi
  ROW="| ${NAMES[$i]} | $DB | ${rps:-?} | ${p50:-?} | ${p99:-?} | $((max_rss / 1024)) | $sql | $cpu | ${errs:-none} |"
  LINE="${NAMES[$i]}: ${rps:-?} req/s p50 ${p50:-?} p99 ${p99:-?} max RSS $((max_rss / 1024)) MB sql/req $sql cpu $cpu"
}

ROWS=()
for i in "${!PATHS[@]}"; do
  if [ -n "$ONLY" ] && [[ " $ONLY " != *" ${SLUGS[$i]} "* ]]; then continue; fi
  best_row="" best_other=101
  for attempt in $(seq 0 "$RETRIES"); do
    measure "$i" "$attempt"
    echo "$LINE (other programs: ${OTHER}%)" >&2
    if [ "$OTHER" -lt "$best_other" ]; then best_row="$ROW" best_other=$OTHER; fi
    [ "$OTHER" -le "$BUSY_OK" ] && break
    [ "$attempt" -lt "$RETRIES" ] && echo "  other programs used ${OTHER}% of the machine: measuring again" >&2
  done
  ROWS+=("$best_row")
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
echo "| endpoint | DB | req/s | p50 | p99 | max RSS (MB) | SQL/req | CPU % server / PG / wrk / softirq / other / idle | errors |"
echo "|---|---|---:|---:|---:|---:|---:|---|---|"
printf '%s\n' "${ROWS[@]}"
echo
echo "- seed: ${SEED_S} s; time to ready: ${READY_MS} ms from exec to the first 200 on /_health (server's own log: ${SELF_STARTUP:-?}); idle RSS after start: $((IDLE_RSS_KB / 1024)) MB"
echo "- SIGTERM to exit: ${STOP_MS} ms, exit status ${EXIT}"
if [ "$PROFILE" = 1 ]; then
  for slug in "${SLUGS[@]}"; do
    f="$PROFILE_DIR/$slug.pprof"
    [ -s "$f" ] || continue
    echo
    echo "#### CPU profile of the server: $slug ($f)"
    echo
    echo '```'
    (cd "$SRC" && go tool pprof -top -nodecount=30 /tmp/stratum-prof "$f" 2>/dev/null) | sed -n '1,40p'
    echo '```'
  done
fi
