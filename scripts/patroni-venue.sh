#!/usr/bin/env bash
# The venue's automated failover, tried on this machine: one etcd and two patroni nodes
# (config/postgresql/patroni-db1.yml and -db2.yml, moved onto loopback ports), in a temporary
# directory, all as the `postgres` user. It waits for a leader and its synchronous standby,
# commits a row, kills the leader's machine (kill -9 of patroni and its PostgreSQL), times
# until the other node is promoted, shows the row there, shows that a commit on the lone new
# primary waits (synchronous_mode_strict), brings the old node back as the new standby (the
# waiting commit then returns), and stops everything.
#
# Usage: scripts/patroni-venue.sh [--keep]   (--keep leaves the directory and its logs)
# Needs Debian's postgresql, patroni and etcd-server (apt-get install patroni etcd-server).
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "patroni-venue: run as root (it runs the nodes as postgres)" >&2; exit 2; }
for program in /usr/bin/patroni /usr/bin/etcd /usr/lib/postgresql/15/bin/postgres; do
    [ -x "$program" ] || { echo "patroni-venue: $program is missing (apt-get install postgresql patroni etcd-server)" >&2; exit 2; }
done
keep="${1:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(mktemp -d /tmp/courtside-patroni.XXXXXX)"
chown postgres: "$dir"
as_postgres() { runuser -u postgres -- "$@"; }
# For the servers, started in the background: setpriv execs (runuser would stay as their parent),
# and an array rather than a function (bash would fork a subshell for it), so $! is the server.
as_postgres_exec=(setpriv --reuid=postgres --regid=postgres --init-groups env HOME=/var/lib/postgresql)
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.2f}')"; }
etcd_port="$(free_port)" etcd_peer="$(free_port)"
declare -A pg rest pids
pg[db1]="$(free_port)" pg[db2]="$(free_port)" rest[db1]="$(free_port)" rest[db2]="$(free_port)"
# Random passwords, given to patroni in its environment as the venue's env.conf does (never
# PGPASSWORD: libpq would prefer it to the replication password that patroni writes in its pgpass).
export PATRONI_SUPERUSER_PASSWORD="$(openssl rand -hex 16)" PATRONI_REPLICATION_PASSWORD="$(openssl rand -hex 16)"

stop_all() {
    for node in db1 db2; do
        [ -n "${pids[$node]:-}" ] && kill "${pids[$node]}" 2>/dev/null || true
    done
    for node in db1 db2; do
        [ -n "${pids[$node]:-}" ] && while kill -0 "${pids[$node]}" 2>/dev/null; do sleep 0.2; done
    done
    [ -n "${pids[etcd]:-}" ] && { kill "${pids[etcd]}" 2>/dev/null || true; wait "${pids[etcd]}" 2>/dev/null || true; }
    if [ "$keep" = --keep ]; then echo "left in $dir"; else rm -rf "$dir"; fi
}
trap stop_all EXIT

# A self-signed certificate for the demonstration; a venue uses its own (see docs/POSTGRESQL.md).
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout "$dir/server.key" -out "$dir/server.crt" 2>/dev/null
chown postgres: "$dir/server.key" "$dir/server.crt"
chmod 600 "$dir/server.key"

for node in db1 db2; do
    sed -e "s#10\.0\.0\.1[12]:8008#127.0.0.1:${rest[$node]}#g" -e "s#10\.0\.0\.1[12]:5432#127.0.0.1:${pg[$node]}#g" \
        -e "s#10\.0\.0\.10:2379#127.0.0.1:$etcd_port#" -e "s#/var/lib/postgresql/15/courtside#$dir/$node#g" \
        -e "s#/var/run/postgresql#$dir#" -e "s#/etc/postgresql/courtside/#$dir/#g" \
        -e "s#10\.0\.0\.1[12]/32#127.0.0.1/32#g" -e "s#10\.0\.0\.0/24#127.0.0.1/32#" \
        "$root/config/postgresql/patroni-$node.yml" >"$dir/$node.yml"
done

echo "etcd on 127.0.0.1:$etcd_port; db1 on 127.0.0.1:${pg[db1]}, db2 on 127.0.0.1:${pg[db2]}; in $dir"
"${as_postgres_exec[@]}" etcd --name courtside-etcd --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
    --initial-cluster "courtside-etcd=http://127.0.0.1:$etcd_peer" >"$dir/etcd.log" 2>&1 &
pids[etcd]=$!

start_node() {
    "${as_postgres_exec[@]}" /usr/bin/patroni "$dir/$1.yml" >>"$dir/$1.log" 2>&1 &
    pids[$1]=$!
    disown "${pids[$1]}" # no "Killed" notice from bash when the demonstration kills it
}
# Patroni's REST API answers 200 on /primary at the leader and on /sync at its synchronous standby.
answers() { [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${rest[$1]}/$2")" = 200 ]; }
wait_for() { # node endpoint seconds
    local deadline=$((SECONDS + $3))
    until answers "$1" "$2"; do
        [ $SECONDS -lt "$deadline" ] || { echo "patroni-venue: $1 never answered /$2 (logs in $dir)" >&2; keep=--keep; exit 1; }
        sleep 0.1
    done
}
psql_at() { as_postgres env PGPASSWORD="$PATRONI_SUPERUSER_PASSWORD" PGSSLMODE=require /usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "${pg[$1]}" -U postgres -d postgres -Atqc "$2"; }
list() { patronictl -c "$dir/db1.yml" list 2>/dev/null; }

start_node db1
wait_for db1 primary 60
start_node db2
wait_for db2 sync 90
list

psql_at db1 "CREATE TABLE moves (id int PRIMARY KEY); INSERT INTO moves VALUES (1)"
echo "committed row 1 on db1 (the leader; TLS and a password)"

# The leader's machine is lost: patroni and PostgreSQL killed with -9, nothing shut down.
postmaster="$(head -1 "$dir/db1/postmaster.pid")"
kill -STOP "$postmaster"
killed="$(now)"
kill -9 "${pids[db1]}" $(pgrep -P "$postmaster") "$postmaster"
pids[db1]=""
wait_for db2 primary 60
promoted="$(now)"
echo "killed db1 (kill -9); db2 promoted after $(elapsed "$killed" "$promoted") s"
list
echo "on db2 after the failover: rows $(psql_at db2 "SELECT string_agg(id::text, ',') FROM moves")"

# Strict: alone, the new primary does not acknowledge.
psql_at db2 "INSERT INTO moves VALUES (2)" &
insert=$!
sleep 2
if kill -0 "$insert" 2>/dev/null; then echo "a commit on db2 alone waits (no acknowledgement without a standby)"; else echo "a commit on db2 alone returned: not strict!"; fi

# The old leader comes back: patroni rewinds it and it streams from db2, as its synchronous standby.
rejoin="$(now)"
start_node db1
wait_for db1 sync 90
echo "db1 back as db2's synchronous standby after $(elapsed "$rejoin" "$(now)") s"
wait "$insert" && echo "the waiting commit returned: rows $(psql_at db2 "SELECT string_agg(id::text, ',' ORDER BY id) FROM moves")"
list
