#!/usr/bin/env bash
# Side by side: Strapi 5 and Stratum on the same data, on this machine, now
# (see bench/README.md, "Against Strapi on the same machine").
#
#   bash bench/peer.sh              # install, seed, import, measure both
#   KEEP_DB=1 bash bench/peer.sh    # measure again on the databases of a previous run
#
# 1. Installs the Strapi 5 project in bench/strapi-peer (its package.json pins
#    Strapi 5.54) into PEER_DIR with npm, once.
# 2. Creates the database STRAPI_DB_URL and starts Strapi on it; its bootstrap
#    (src/index.js) seeds ARTICLES articles through Strapi's document service
#    (a category, three tags, a component, a dynamic zone and rich text each)
#    and a full-access API token whose key is made here.
# 3. Creates STRATUM_DB_URL and runs `stratum import strapi` from Strapi's
#    database into it, with the same project folder: the same documents, ids,
#    roles, permissions and token. Then starts `stratum serve` on it.
# 4. For each workload: a warm-up and a measured `wrk` run against Strapi,
#    then the same against Stratum (the other server idles meanwhile), and a
#    markdown table with both and their ratio.
#
# Settings (environment):
#   ARTICLES        articles Strapi seeds (10000)
#   DURATION WARMUP seconds of each measured and warm-up wrk run (15, 3)
#   THREADS CONNS   wrk -t and -c (2, 32)
#   ROUNDS          measured rounds per workload and server (1); the table
#                   shows each round's figure and the ratio of the medians
#   ONLY            space-separated slugs: list nocount filtered deep populate2
#                   popall one graphql relsort create
#   KEEP_DB=1       reuse both databases (no seed, no import)
#   PEER_DIR        where Strapi is installed ($HOME/.cache/stratum-bench/strapi-peer)
#   STRAPI_DB_URL   postgres://postgres@127.0.0.1:5432/strapi_peer_bench
#   STRATUM_DB_URL  postgres://postgres@127.0.0.1:5432/stratum_peer_bench?sslmode=disable
#                   (both names must contain "bench": they are dropped and made again)
#   QUIET_WAIT      before each run, wait up to this many seconds for the machine
#                   to be idle (60): see wait_quiet in bench/lib.sh
#   STRAPI_PORT PORT  1337, 1339
#   SRC BIN         the source tree to build (this one) and the binary (/tmp/stratum-peer)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="${SRC:-$ROOT}"
BIN="${BIN:-/tmp/stratum-peer}"
ARTICLES="${ARTICLES:-10000}"
DURATION="${DURATION:-15}"
WARMUP="${WARMUP:-3}"
THREADS="${THREADS:-2}"
CONNS="${CONNS:-32}"
ROUNDS="${ROUNDS:-1}"
ONLY="${ONLY:-}"
PEER_DIR="${PEER_DIR:-$HOME/.cache/stratum-bench/strapi-peer}"
STRAPI_DB_URL="${STRAPI_DB_URL:-postgres://postgres@127.0.0.1:5432/strapi_peer_bench}"
STRATUM_DB_URL="${STRATUM_DB_URL:-postgres://postgres@127.0.0.1:5432/stratum_peer_bench?sslmode=disable}"
STRAPI_PORT="${STRAPI_PORT:-1337}"
PORT="${PORT:-1339}"
WRK="${WRK:-wrk}"

die() { printf 'peer.sh: %s\n' "$*" >&2; exit 1; }
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
QUIET_WAIT="${QUIET_WAIT:-60}"
for n in ARTICLES DURATION WARMUP THREADS CONNS ROUNDS STRAPI_PORT PORT QUIET_WAIT; do
  [[ "${!n}" =~ ^[0-9]+$ ]] || die "$n must be a number"
done
for c in node npm psql curl "$WRK"; do command -v "$c" >/dev/null || die "$c not found"; done
node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' || die "Strapi 5 needs Node.js 20 or later"

# The secrets both servers share: Stratum checks Strapi's token digests and
# JWTs with Strapi's salt and secret (README, "Moving from Strapi").
export APP_KEYS="peerKeyA,peerKeyB" ADMIN_JWT_SECRET="peer-admin-jwt" API_TOKEN_SALT="peer-token-salt" \
  TRANSFER_TOKEN_SALT="peer-transfer-salt" ENCRYPTION_KEY="peer-encryption-key" JWT_SECRET="peer-jwt-secret"
# A token has Strapi's shape (256 hex characters: Stratum refuses any other
# without a lookup); a fixed one, so KEEP_DB=1 runs find it in both databases.
PEER_TOKEN="$(printf 'stratum bench/peer.sh 1' | sha512sum | cut -c1-128)$(printf 'stratum bench/peer.sh 2' | sha512sum | cut -c1-128)"

TMP="$(mktemp -d /tmp/stratum-peer.XXXXXX)"
STRAPI_PID="" STRATUM_PID=""
stop() {
  local pid=$1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}
cleanup() {
  stop "$STRATUM_PID"; stop "$STRAPI_PID"
  # What the create row wrote goes again (KEEP_DB=1 reuses the databases).
  if [ -n "${CREATED:-}" ]; then
    psql_q "$STRAPI_DB_URL" "DELETE FROM articles WHERE title LIKE 'Peer load %';
      DELETE FROM components_shared_seos s WHERE NOT EXISTS (SELECT 1 FROM articles_cmps c WHERE c.cmp_id = s.id AND c.component_type = 'shared.seo')" >/dev/null || true
    psql_q "$STRATUM_DB_URL" "DELETE FROM articles WHERE data->>'title' LIKE 'Peer load %';
      DELETE FROM stratum_counts WHERE tbl = 'articles';
      INSERT INTO stratum_counts (tbl, published, locale, n) SELECT 'articles', published_at IS NOT NULL, locale, COUNT(*) FROM articles GROUP BY 2, 3" >/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT

# ---- install Strapi (once) ----
mkdir -p "$PEER_DIR"
if ! cmp -s "$ROOT/bench/strapi-peer/package.json" "$PEER_DIR/package.json" || [ ! -d "$PEER_DIR/node_modules/@strapi/strapi" ]; then
  echo "installing Strapi into $PEER_DIR (npm, a few minutes, once)" >&2
  cp "$ROOT/bench/strapi-peer/package.json" "$PEER_DIR/"
  (cd "$PEER_DIR" && npm install --no-audit --no-fund --loglevel=error >&2)
fi
rm -rf "$PEER_DIR/src" "$PEER_DIR/config"
cp -r "$ROOT/bench/strapi-peer/src" "$ROOT/bench/strapi-peer/config" "$PEER_DIR/"
mkdir -p "$PEER_DIR/public/uploads"

echo "building $BIN" >&2
(cd "$SRC" && go build -o "$BIN" ./cmd/stratum)

# ---- Strapi: database, seed, start ----
[ "${KEEP_DB:-}" = 1 ] || fresh_db "$STRAPI_DB_URL"
db_parts "$STRAPI_DB_URL"
# Strapi takes the URL's parts: postgres://user[:password]@host[:port]/name.
userinfo="${STRAPI_DB_URL#postgres://}"; userinfo="${userinfo%%/*}"
hostport="${userinfo##*@}"; [ "$userinfo" = "$hostport" ] && userinfo="postgres"; userinfo="${userinfo%@*}"
db_user="${userinfo%%:*}"; db_pass=""; [ "$userinfo" != "$db_user" ] && db_pass="${userinfo#*:}"
db_host="${hostport%:*}"; db_port=5432; [ "$hostport" != "$db_host" ] && db_port="${hostport##*:}"
for port in "$STRAPI_PORT" "$PORT"; do
  if curl -s --max-time 1 -o /dev/null "http://127.0.0.1:$port/"; then die "something already answers on port $port"; fi
done
echo "starting Strapi (its bootstrap seeds $ARTICLES articles on a new database: minutes)" >&2
t0=$(now_ms)
(cd "$PEER_DIR" && NODE_ENV=production HOST=127.0.0.1 PORT="$STRAPI_PORT" \
  DATABASE_HOST="$db_host" DATABASE_PORT="$db_port" DATABASE_NAME="$DBNAME" DATABASE_USERNAME="$db_user" DATABASE_PASSWORD="$db_pass" \
  SEED_ARTICLES="$ARTICLES" PEER_TOKEN="$PEER_TOKEN" exec node node_modules/@strapi/strapi/bin/strapi.js start) >"$TMP/strapi.log" 2>&1 &
STRAPI_PID=$!
STRAPI="http://127.0.0.1:$STRAPI_PORT"
for _ in $(seq 1 3600); do # at most an hour (a seed of 10,000 takes minutes)
  curl -s --max-time 1 -o /dev/null "$STRAPI/api/articles?pagination%5BpageSize%5D=1" && break
  kill -0 "$STRAPI_PID" 2>/dev/null || { tail -30 "$TMP/strapi.log" >&2; die "Strapi exited"; }
  sleep 1
done
echo "Strapi answers after $(( ($(now_ms) - t0) / 1000 )) s" >&2
grep -o '\[seed\] done.*' "$TMP/strapi.log" >&2 || true

# ---- Stratum: import, start ----
PROJECT="$TMP/project"
mkdir -p "$PROJECT"
cp -r "$ROOT/bench/strapi-peer/src" "$ROOT/bench/strapi-peer/config" "$PROJECT/"
if [ "${KEEP_DB:-}" != 1 ]; then
  fresh_db "$STRATUM_DB_URL"
  echo "importing Strapi's database into Stratum" >&2
  t0=$(now_ms)
  DATABASE_URL="$STRATUM_DB_URL" "$BIN" import strapi --from "${STRAPI_DB_URL}" --dir "$PROJECT" >&2
  echo "import took $(( ($(now_ms) - t0) / 1000 )) s" >&2
fi
psql_q "$STRATUM_DB_URL" 'VACUUM ANALYZE' >/dev/null
psql_q "$STRAPI_DB_URL" 'VACUUM ANALYZE' >/dev/null
DATABASE_URL="$STRATUM_DB_URL" "$BIN" serve --dir "$PROJECT" --host 127.0.0.1 --port "$PORT" 2>"$TMP/stratum.log" &
STRATUM_PID=$!
STRATUM="http://127.0.0.1:$PORT"
for _ in $(seq 1 400); do
  curl -s --max-time 1 -o /dev/null "$STRATUM/_ready" && break
  kill -0 "$STRATUM_PID" 2>/dev/null || { cat "$TMP/stratum.log" >&2; die "stratum exited"; }
  sleep 0.05
done

# ---- workloads ----
first="$(curl -s --max-time 10 "$STRAPI/api/articles?pagination%5BpageSize%5D=1")"
DOC_ID="$(printf '%s' "$first" | grep -o '"documentId":"[a-z0-9]*"' | head -n1 | cut -d'"' -f4 || true)"
[ -n "$DOC_ID" ] || die "no article in Strapi's list: $(printf '%s' "$first" | head -c 300)"
CATS="$(curl -s --max-time 10 "$STRAPI/api/categories?pagination%5BpageSize%5D=1")"
CAT_ID="$(printf '%s' "$CATS" | grep -o '"documentId":"[a-z0-9]*"' | head -n1 | cut -d'"' -f4 || true)"
CAT_NAME="$(printf '%s' "$CATS" | grep -o '"name":"[A-Za-z]*"' | head -n1 | cut -d'"' -f4 || true)"
read -r TAG1 TAG2 <<<"$(curl -s --max-time 10 "$STRAPI/api/tags?pagination%5BpageSize%5D=2" | grep -o '"documentId":"[a-z0-9]*"' | cut -d'"' -f4 | paste -sd' ' || true)"
[ -n "$CAT_ID" ] && [ -n "$CAT_NAME" ] && [ -n "${TAG2:-}" ] || die "no category or tags in Strapi"

SLUGS=(list nocount filtered deep populate2 popall one graphql relsort create)
declare -A NAME PATHQ BODY
NAME[list]="list of 25 (with count)";         PATHQ[list]="/api/articles"
NAME[nocount]="list of 25 without count";     PATHQ[nocount]="/api/articles?pagination%5BwithCount%5D=false"
NAME[filtered]="filtered + sorted list";      PATHQ[filtered]="/api/articles?filters%5Bviews%5D%5B%24gt%5D=500&sort=rating:desc"
NAME[deep]="filter through a relation (category name)"; PATHQ[deep]="/api/articles?filters%5Bcategory%5D%5Bname%5D%5B%24eq%5D=$CAT_NAME"
NAME[populate2]="populate category,tags";     PATHQ[populate2]="/api/articles?populate%5Bcategory%5D=true&populate%5Btags%5D=true"
NAME[popall]="populate=*";                    PATHQ[popall]="/api/articles?populate=%2A"
NAME[one]="one document";                     PATHQ[one]="/api/articles/$DOC_ID"
NAME[graphql]="GraphQL: 25 articles + category + tags"; PATHQ[graphql]="/graphql"
# The same request in each server's GraphQL: Strapi 5's own (flat, a
# connection for the total) and Strapi 4's, which Stratum serves.
BODY[graphql]='{"query":"{ articles_connection(pagination:{pageSize:25}, sort:[\"title\"]) { nodes { documentId title views category { documentId name } tags { documentId name } } pageInfo { total } } }"}'
STRATUM_GRAPHQL='{"query":"{ articles(pagination:{pageSize:25}, sort:[\"title\"]) { data { id attributes { title views category { data { id attributes { name } } } tags { data { id attributes { name } } } } } meta { pagination { total } } } }"}'
NAME[relsort]="sort on a relation field";     PATHQ[relsort]="/api/articles?sort=category.name:asc"
NAME[create]="create an article (API token)"; PATHQ[create]="/api/articles"

# Lua scripts: a fixed POST body (GraphQL), or a new article per request.
post_lua() { printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [==[%s]==]\n' "$1"; }
post_lua "${BODY[graphql]}" >"$TMP/graphql.$STRAPI_PORT.lua"
post_lua "$STRATUM_GRAPHQL" >"$TMP/graphql.$PORT.lua"
cat >"$TMP/create.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $PEER_TOKEN"
local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
local n = 0
request = function()
  n = n + 1
  local title = "Peer load $$ $(now_ms) " .. tid .. " " .. n
  local body = '{"data":{"title":"' .. title .. '","views":' .. n .. ',"rating":4.5,"seo":{"metaTitle":"' .. title ..
    '"},"category":"$CAT_ID","tags":["$TAG1","$TAG2"]}}'
  return wrk.format(nil, nil, nil, body)
end
LUA
# wrk_args BASE SLUG
wrk_args() {
  case $2 in graphql) echo "-s $TMP/graphql.${1##*:}.lua" ;; create) echo "-s $TMP/create.lua" ;; esac
}

# Both servers must answer each workload alike before it is measured: 200,
# and for the lists the same total.
total_of() { grep -o '"total": *[0-9]*' | head -n1 | grep -o '[0-9]*$' || true; }
for s in "${SLUGS[@]}"; do
  [ -n "$ONLY" ] && [[ " $ONLY " != *" $s "* ]] && continue
  [ "$s" = create ] && continue
  totals=()
  for base in "$STRAPI" "$STRATUM"; do
    if [ -n "${BODY[$s]:-}" ]; then
      body="${BODY[$s]}"; [ "$base" = "$STRATUM" ] && body="$STRATUM_GRAPHQL"
      code="$(curl -s --max-time 30 -o "$TMP/check" -w '%{http_code}' -H 'Content-Type: application/json' -d "$body" "$base${PATHQ[$s]}")"
      grep -q '"errors"' "$TMP/check" && die "$base: $s answered errors: $(head -c 300 "$TMP/check")"
    else
      code="$(curl -s --max-time 30 -o "$TMP/check" -w '%{http_code}' "$base${PATHQ[$s]}")"
    fi
    [ "$code" = 200 ] || die "$base${PATHQ[$s]} answered $code: $(head -c 300 "$TMP/check")"
    totals+=("$(total_of <"$TMP/check")")
  done
  [ "${totals[0]}" = "${totals[1]}" ] || die "$s: Strapi's total ${totals[0]}, Stratum's ${totals[1]}"
done
if [ -z "$ONLY" ] || [[ " $ONLY " == *" create "* ]]; then
  for base in "$STRAPI" "$STRATUM"; do
    code="$(curl -s --max-time 30 -o "$TMP/check" -w '%{http_code}' -H "Authorization: Bearer $PEER_TOKEN" -H 'Content-Type: application/json' \
      -d "{\"data\":{\"title\":\"Peer load check\",\"category\":\"$CAT_ID\",\"tags\":[\"$TAG1\"]}}" "$base/api/articles")"
    [ "$code" = 200 ] || [ "$code" = 201 ] || die "$base: POST /api/articles answered $code: $(head -c 300 "$TMP/check")"
  done
  CREATED=1
fi

# run BASE PID SLUG: a warm-up and a measured run; prints "req/s p50 p99 maxRSSMB errors".
run() {
  local base=$1 pid=$2 s=$3 out="$TMP/wrk.out" max_rss=0 rss wrk_pid
  wait_quiet
  # shellcheck disable=SC2046
  [ "$WARMUP" -gt 0 ] && "$WRK" -t"$THREADS" -c"$CONNS" --timeout 30s -d"${WARMUP}s" $(wrk_args "$base" "$s") "$base${PATHQ[$s]}" >/dev/null
  wait_quiet
  # shellcheck disable=SC2046
  "$WRK" -t"$THREADS" -c"$CONNS" --timeout 30s -d"${DURATION}s" --latency $(wrk_args "$base" "$s") "$base${PATHQ[$s]}" >"$out" &
  wrk_pid=$!
  # run is a subshell of the loop below: a die or a signal here ends it,
  # and a background wrk would go on loading the next measurement.
  trap 'kill "$wrk_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 1 $(( (DURATION + 30) * 5 ))); do
    kill -0 "$wrk_pid" 2>/dev/null || break
    rss="$(ps -o rss= -p "$pid" | tr -d ' ' || true)"
    [ -n "$rss" ] && [ "$rss" -gt "$max_rss" ] && max_rss=$rss
    sleep 0.2
  done
  wait "$wrk_pid" || die "wrk failed: $(cat "$out")"
  local errs
  errs="$(awk '/Non-2xx/ {print "non-2xx:" $NF} /Socket errors/ {print "socket-errors"}' "$out" | paste -sd',')"
  printf '%s %s %s %s %s\n' "$(awk '/^Requests\/sec:/ {print $2}' "$out")" "$(awk '$1 == "50%" {print $2}' "$out")" \
    "$(awk '$1 == "99%" {print $2}' "$out")" "$((max_rss / 1024))" "${errs:-none}"
}
median() { sort -n | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

ROWS=()
for s in "${SLUGS[@]}"; do
  [ -n "$ONLY" ] && [[ " $ONLY " != *" $s "* ]] && continue
  a_rps=() b_rps=() a_txt=() b_txt=()
  for r in $(seq 1 "$ROUNDS"); do
    read -r rps p50 p99 rss errs < <(run "$STRAPI" "$STRAPI_PID" "$s")
    echo "Strapi  $s: $rps req/s p50 $p50 p99 $p99 RSS ${rss} MB errors $errs" >&2
    a_rps+=("$rps"); a_txt+=("$(printf '%.0f' "$rps") ($p50 / $p99, ${rss} MB)")
    [ "$errs" = none ] || a_txt[-1]+=" $errs"
    read -r rps p50 p99 rss errs < <(run "$STRATUM" "$STRATUM_PID" "$s")
    echo "Stratum $s: $rps req/s p50 $p50 p99 $p99 RSS ${rss} MB errors $errs" >&2
    b_rps+=("$rps"); b_txt+=("$(printf '%.0f' "$rps") ($p50 / $p99, ${rss} MB)")
    [ "$errs" = none ] || b_txt[-1]+=" $errs"
  done
  ma="$(printf '%s\n' "${a_rps[@]}" | median)"; mb="$(printf '%s\n' "${b_rps[@]}" | median)"
  ratio="$(awk -v a="$ma" -v b="$mb" 'BEGIN { if (a > 0) printf "%.0f×", b / a; else print "-" }')"
  ROWS+=("| ${NAME[$s]} | $(IFS=';'; echo "${a_txt[*]}" | sed 's/;/; /g') | $(IFS=';'; echo "${b_txt[*]}" | sed 's/;/; /g') | $ratio |")
done

echo
echo "### Strapi 5.54 and Stratum, PostgreSQL $(psql_q "$STRAPI_DB_URL" 'SHOW server_version' | cut -d' ' -f1), $ARTICLES articles, wrk -t$THREADS -c$CONNS -d${DURATION}s, $(nproc) CPUs, $ROUNDS round(s)"
echo
echo "| workload | Strapi req/s (p50 / p99, max RSS) | Stratum req/s (p50 / p99, max RSS) | Stratum / Strapi |"
echo "|---|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
