# Shared by bench/load.sh and bench/peer.sh (sourced; they define die).

psql_q() { psql "$1" -v ON_ERROR_STOP=1 -qtAc "$2"; }

# db_parts URL: sets DBNAME and ADMIN_URL (the same server's postgres
# database), refusing a name that is not plain or lacks "bench": the
# scripts drop the databases they are given.
db_parts() {
  local url_noq="${1%%\?*}" query=""
  [ "$url_noq" != "$1" ] && query="?${1#*\?}"
  DBNAME="${url_noq##*/}"
  [[ "$DBNAME" =~ ^[a-z_][a-z0-9_]*$ ]] || die "database name '$DBNAME' must be [a-z_][a-z0-9_]*"
  [[ "$DBNAME" == *bench* ]] || die "refusing to drop '$DBNAME': the bench database's name must contain 'bench'"
  ADMIN_URL="${url_noq%/*}/postgres${query}"
}

# fresh_db URL: drops the URL's database and creates it again.
fresh_db() {
  db_parts "$1"
  echo "creating database $DBNAME" >&2
  psql_q "$ADMIN_URL" "DROP DATABASE IF EXISTS $DBNAME WITH (FORCE)"
  psql_q "$ADMIN_URL" "CREATE DATABASE $DBNAME"
}

# /proc/stat cpu: user nice system idle iowait irq softirq steal.
# Prints busy, total, and irq+softirq (loopback TCP is mostly softirq work,
# charged to no process).
machine_ticks() { awk '/^cpu / {print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9, $7+$8}' /proc/stat; }

# wait_quiet: up to QUIET_WAIT seconds until a second passes with the
# machine under 10% busy. Other work on a 2-core box skews every figure, and
# a server keeps working through the requests it had accepted when wrk
# stopped (Strapi's queue holds seconds of them): that must not land in the
# next run.
wait_quiet() {
  local b0 a0 b1 a1
  for _ in $(seq 1 "$QUIET_WAIT"); do
    read -r b0 a0 _ < <(machine_ticks); sleep 1; read -r b1 a1 _ < <(machine_ticks)
    if [ $(( (b1 - b0) * 100 )) -lt $(( (a1 - a0) * 10 )) ]; then return 0; fi
  done
  echo "machine still busy after ${QUIET_WAIT}s: measuring anyway" >&2
}
