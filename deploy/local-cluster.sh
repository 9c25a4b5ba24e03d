#!/usr/bin/env bash
# Runs the topology of docker-compose.yml as plain processes on this
# machine, and checks it:
#
#   PostgreSQL (the running one; a fresh database, dropped at the end)
#   versitygw  (an S3 server, posix backend in a temp folder; bucket "media")
#   node 1, node 2  (`stratum serve`, uploads on S3 through the aws-s3 provider)
#   stratum-lb (a load balancer in front of both nodes)
#
# Checks: an upload on node 1 is served through node 2 (same file object,
# bytes read at its URL); a content-type created on node 1 serves on node 2
# within a second; node 1 killed (SIGKILL) while GETs stream through the
# load balancer loses none of them.
#
# Usage: deploy/local-cluster.sh [--keep]
#   --keep    leave the cluster running after the checks, until Ctrl-C
# Environment:
#   PG_URL     a PostgreSQL URL whose user may CREATE DATABASE
#              (default postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)
#   VERSITYGW  the versitygw binary (default: on PATH, else $(go env GOPATH)/bin)
# Only 127.0.0.1 is used. Exits non-zero when a check fails.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PG_URL="${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}"
KEEP=0
[ "${1:-}" = "--keep" ] && KEEP=1

WORK="$(mktemp -d "${TMPDIR:-/tmp}/stratum-cluster.XXXXXX")"
PIDS=()
DB=""
FAILED=0

log() { printf '[cluster %3ds] %s\n' "$SECONDS" "$*"; }
fail() {
  printf '[cluster] FAIL: %s\n' "$*" >&2
  FAILED=1
}
die() {
  printf '[cluster] FATAL: %s\n' "$*" >&2
  exit 1
}

cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  if [ -n "$DB" ]; then
    psql "$PG_URL" -qAtc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  if [ "$status" -ne 0 ] || [ "$FAILED" -ne 0 ]; then
    for f in "$WORK"/*.log; do
      [ -f "$f" ] || continue
      printf '\n---- %s (last lines) ----\n' "$(basename "$f")" >&2
      tail -n 15 "$f" >&2 || true
    done
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ms() { date +%s%3N; }

# free_port prints a port of 127.0.0.1 nothing listens on, below the
# kernel's ephemeral range so that no test's listener on :0 or outgoing
# connection takes it between this check and the server's bind.
free_port() {
  local p lo
  lo="$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
  [ "$lo" -gt 21000 ] 2>/dev/null || lo=32768
  while :; do
    p=$((20000 + RANDOM % (lo - 20000)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
}

# wait_http URL SECONDS: until URL answers 200.
wait_http() {
  local deadline=$(($(now_ms) + $2 * 1000))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = "200" ]; do
    [ "$(now_ms)" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

# ---- tools ----
command -v go >/dev/null || die "go is needed to build stratum and stratum-lb"
command -v psql >/dev/null || die "psql is needed to create the cluster's database"
command -v curl >/dev/null || die "curl is needed for the checks"
VERSITYGW="${VERSITYGW:-$(command -v versitygw || true)}"
[ -n "$VERSITYGW" ] || VERSITYGW="$(go env GOPATH)/bin/versitygw"
[ -x "$VERSITYGW" ] || die "versitygw not found: go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"
psql "$PG_URL" -qAtc 'SELECT 1' >/dev/null 2>&1 || die "PostgreSQL does not answer at PG_URL=$PG_URL"

log "building stratum and stratum-lb"
mkdir -p "$WORK/bin"
(cd "$ROOT" && go build -o "$WORK/bin/" ./cmd/stratum ./cmd/stratum-lb)

# ---- PostgreSQL: a fresh database ----
DB="stratum_cluster_$$_$RANDOM"
psql "$PG_URL" -qAtc "CREATE DATABASE $DB" >/dev/null
DATABASE_URL="$(printf '%s' "$PG_URL" | sed -E "s#^(postgres(ql)?://[^/?]+)(/[^?]*)?#\1/$DB#")"
log "database $DB"

# ---- S3: versitygw and the bucket ----
# A port found free can still be taken before versitygw binds it (other
# tests run beside this one): then another port is tried.
start_s3() {
  S3_PORT="$(free_port)"
  S3="http://127.0.0.1:$S3_PORT"
  "$VERSITYGW" --access "$AWS_ACCESS_KEY_ID" --secret "$AWS_SECRET_ACCESS_KEY" --port "127.0.0.1:$S3_PORT" --quiet \
    posix "$WORK/s3" >"$WORK/versitygw.log" 2>&1 &
  S3_PID=$!
  local deadline=$(($(now_ms) + 15000))
  until [ "$(curl -s -m 2 -o /dev/null -w '%{http_code}' "$S3/")" != "000" ]; do
    kill -0 "$S3_PID" 2>/dev/null || return 1
    [ "$(now_ms)" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}
export AWS_ACCESS_KEY_ID="cluster" AWS_SECRET_ACCESS_KEY="cluster-secret" AWS_REGION="us-east-1"
mkdir -p "$WORK/s3"
for try in 1 2 3 4 5; do
  if start_s3; then break; fi
  kill "$S3_PID" 2>/dev/null || true
  wait "$S3_PID" 2>/dev/null || true
  [ "$try" -lt 5 ] || die "versitygw did not start"
  log "versitygw did not answer on port $S3_PORT ($(tail -n 1 "$WORK/versitygw.log")); another port"
done
PIDS+=("$S3_PID")

# s3 METHOD PATH [BODY]: a request signed with the cluster's key.
s3() {
  local body="${3-}"
  curl -sf -o /dev/null -X "$1" --aws-sigv4 "aws:amz:${AWS_REGION}:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H "x-amz-content-sha256: $(printf '%s' "$body" | sha256sum | cut -d' ' -f1)" ${body:+--data-binary "$body"} "$S3$2"
}
s3 PUT /media || die "could not create the bucket"
# Anyone may read the files (browsers load them from their URL).
s3 PUT "/media?policy=" '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":["s3:GetObject"],"Resource":["arn:aws:s3:::media/*"]}]}' ||
  die "could not make the bucket public-read"
log "S3 server $S3, bucket media"

# ---- the project: the blog example, uploads on S3 ----
PROJECT="$WORK/project"
cp -a "$ROOT/examples/blog" "$PROJECT"
rm -rf "$PROJECT/.tmp" "$PROJECT/public/uploads"
cat >"$PROJECT/config/plugins.json" <<EOF
{"upload": {"config": {"provider": "aws-s3", "providerOptions": {
  "baseUrl": "$S3/media", "rootPath": "uploads",
  "s3Options": {"endpoint": "$S3", "region": "$AWS_REGION", "forcePathStyle": true, "params": {"Bucket": "media"}}}}}}
EOF
# Public may read articles and upload (for the checks).
cat >"$PROJECT/config/permissions.json" <<'EOF'
{"public": ["api::article.article.find", "api::article.article.findOne",
  "plugin::upload.content-api.upload", "plugin::upload.content-api.find", "plugin::upload.content-api.findOne"]}
EOF

# ---- two nodes ----
ADMIN_EMAIL="ops@example.com"
ADMIN_PASSWORD="Cluster-Pass1"
start_node() { # NAME PORT
  STRATUM_ENV=development DATABASE_URL="$DATABASE_URL" \
    STRATUM_ADMIN_EMAIL="$ADMIN_EMAIL" STRATUM_ADMIN_PASSWORD="$ADMIN_PASSWORD" \
    "$WORK/bin/stratum" serve --dir "$PROJECT" --host 127.0.0.1 --port "$2" >"$WORK/$1.log" 2>&1 &
  PIDS+=($!)
  LAST_PID=$!
}
# serve_node NAME: starts a node on a free port (another one if that port
# was taken before the node bound it) and waits until it is ready; sets
# PORT and LAST_PID.
serve_node() {
  local try
  for try in 1 2 3 4 5; do
    PORT="$(free_port)"
    while [ "$PORT" = "${N1_PORT:-}" ] || [ "$PORT" = "$S3_PORT" ]; do PORT="$(free_port)"; done
    start_node "$1" "$PORT"
    local deadline=$(($(now_ms) + 60000))
    until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/_ready")" = "200" ]; do
      if ! kill -0 "$LAST_PID" 2>/dev/null || [ "$(now_ms)" -ge "$deadline" ]; then
        grep -q "address already in use" "$WORK/$1.log" && [ "$try" -lt 5 ] || die "$1 is not ready"
        log "port $PORT was taken; another one"
        continue 2
      fi
      sleep 0.1
    done
    return 0
  done
}
serve_node node1
N1_PORT="$PORT"
N1_PID=$LAST_PID
N1="http://127.0.0.1:$N1_PORT"
serve_node node2
N2_PORT="$PORT"
N2="http://127.0.0.1:$N2_PORT"
log "node 1 $N1, node 2 $N2"

# ---- the load balancer ----
LB_PORT="$(free_port)"
"$WORK/bin/stratum-lb" --listen "127.0.0.1:$LB_PORT" --backend "$N1" --backend "$N2" --interval 200ms >"$WORK/lb.log" 2>&1 &
PIDS+=($!)
LB="http://127.0.0.1:$LB_PORT"
wait_http "$LB/_ready" 15 || die "the load balancer does not answer"
log "load balancer $LB"

# json FIELD: a top-level string or number of the JSON on stdin (or of
# the first object of an array).
json() { { sed -E 's/^\[//' | grep -oE "\"$1\":(\"[^\"]*\"|[0-9]+)" | head -n 1 | sed -E "s/^\"$1\"://; s/^\"//; s/\"$//"; } || true; }

# ---- check 1: an upload on node 1 is served through node 2 ----
# A 4×4 PNG.
printf '%s' 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAFklEQVR4nGI6ISf3nwEdkCYICAAA//8RKQgPeqdTEgAAAABJRU5ErkJggg==' |
  base64 -d >"$WORK/dot.png"
UP="$(curl -s -F "files=@$WORK/dot.png;type=image/png" "$N1/api/upload")"
FILE_ID="$(printf '%s' "$UP" | json id)"
FILE_URL="$(printf '%s' "$UP" | json url)"
PROVIDER="$(printf '%s' "$UP" | json provider)"
if [ -z "$FILE_ID" ] || [ "$PROVIDER" != "aws-s3" ] || [[ "$FILE_URL" != "$S3/media/uploads/"* ]]; then
  fail "upload on node 1: $UP"
else
  FROM2="$(curl -s "$N2/api/upload/files/$FILE_ID")"
  if [ "$(printf '%s' "$FROM2" | json url)" != "$FILE_URL" ]; then
    fail "node 2 does not answer the file uploaded on node 1: $FROM2"
  elif ! curl -sf "$FILE_URL" -o "$WORK/fetched.png" || ! cmp -s "$WORK/dot.png" "$WORK/fetched.png"; then
    fail "the file's bytes are not served at $FILE_URL"
  elif [ "$(curl -s -o /dev/null -w '%{http_code}' "$N2/uploads/$(basename "$FILE_URL")")" = "200" ]; then
    fail "node 2 serves the file from its own disk"
  else
    log "PASS upload on node 1 served through node 2: $FILE_URL"
  fi
fi

# ---- check 2: a type created on node 1 serves on node 2 within a second ----
ADMIN_JWT="$(curl -s -H 'Content-Type: application/json' -d "{\"email\":\"$ADMIN_EMAIL\",\"password\":\"$ADMIN_PASSWORD\"}" "$N1/admin/login" | json token)"
[ -n "$ADMIN_JWT" ] || die "admin login failed on node 1"
TOKEN="$(curl -s -H "Authorization: Bearer $ADMIN_JWT" -H 'Content-Type: application/json' \
  -d '{"name":"cluster check","type":"full-access"}' "$N1/admin/api-tokens" | json accessKey)"
[ -n "$TOKEN" ] || die "could not create an API token on node 1"
NOTE='{"kind":"collectionType","collectionName":"notes","info":{"singularName":"note","pluralName":"notes","displayName":"Note"},"options":{"draftAndPublish":false},"attributes":{"title":{"type":"string"}}}'
[ "$(curl -s -o /dev/null -w '%{http_code}' "$N2/api/notes" -H "Authorization: Bearer $TOKEN")" = "404" ] ||
  fail "node 2 serves /api/notes before the type exists"
CREATED="$(curl -s -o "$WORK/created.json" -w '%{http_code}' -H "Authorization: Bearer $ADMIN_JWT" -H 'Content-Type: application/json' \
  -d "$NOTE" "$N1/admin/content-types")"
t0="$(now_ms)"
if [ "$CREATED" != "201" ] && [ "$CREATED" != "200" ]; then
  fail "creating a type on node 1: $CREATED $(cat "$WORK/created.json")"
else
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "$N2/api/notes" -H "Authorization: Bearer $TOKEN")" = "200" ]; do
    [ $(($(now_ms) - t0)) -lt 3000 ] || break
    sleep 0.02
  done
  elapsed=$(($(now_ms) - t0))
  if [ "$elapsed" -ge 1000 ]; then
    fail "the type created on node 1 served on node 2 after ${elapsed} ms (want < 1000)"
  else
    log "PASS type created on node 1 serves on node 2 after ${elapsed} ms"
  fi
fi

# ---- check 3: node 1 killed (SIGKILL) without losing a request ----
STREAM_N=100
stream() { # OUT: STREAM_N sequential GETs through the load balancer
  local i
  for ((i = 0; i < STREAM_N; i++)); do
    curl -s -o /dev/null -w '%{http_code} %header{x-upstream}\n' --max-time 10 "$LB/api/articles" || echo "ERR"
  done >"$1"
}
stream "$WORK/stream1.txt" &
S1=$!
stream "$WORK/stream2.txt" &
S2=$!
# Kill node 1 once both streams are well under way.
deadline=$(($(now_ms) + 30000))
while [ "$(cat "$WORK/stream1.txt" "$WORK/stream2.txt" 2>/dev/null | wc -l)" -lt $((STREAM_N / 2)) ]; do
  [ "$(now_ms)" -lt "$deadline" ] || break
  sleep 0.02
done
kill -9 "$N1_PID"
{ wait "$N1_PID"; } 2>/dev/null || true
killed_at="$(cat "$WORK/stream1.txt" "$WORK/stream2.txt" | wc -l)"
wait "$S1" "$S2" || true
total="$(cat "$WORK/stream1.txt" "$WORK/stream2.txt" | wc -l)"
bad="$(cat "$WORK/stream1.txt" "$WORK/stream2.txt" | grep -cv '^200 ' || true)"
by1="$(cat "$WORK/stream1.txt" "$WORK/stream2.txt" | grep -c "127.0.0.1:$N1_PORT" || true)"
if [ "$total" -ne $((2 * STREAM_N)) ] || [ "$bad" -ne 0 ]; then
  fail "node 1 killed after $killed_at of $((2 * STREAM_N)) GETs: $bad failed ($(sort "$WORK/stream1.txt" "$WORK/stream2.txt" | uniq -c | tr '\n' ';'))"
elif [ "$by1" -eq 0 ] || [ "$killed_at" -ge "$total" ]; then
  fail "the kill did not fall inside the stream (node 1 answered $by1, killed after $killed_at of $total)"
else
  log "PASS node 1 killed after $killed_at of $total GETs through the load balancer: all answered 200 (node 1 had answered $by1)"
fi
# Writes keep working through the load balancer on the surviving node.
if [ "$(curl -s -o /dev/null -w '%{http_code}' -F "files=@$WORK/dot.png;type=image/png" "$LB/api/upload")" != "201" ]; then
  fail "an upload through the load balancer after the kill"
else
  log "PASS upload through the load balancer after the kill"
fi

if [ "$FAILED" -ne 0 ]; then
  log "some checks failed"
  exit 1
fi
log "all checks passed"
if [ "$KEEP" -eq 1 ]; then
  log "running: load balancer $LB, node 2 $N2 (node 1 was killed), S3 $S3; Ctrl-C stops"
  wait
fi
