#!/usr/bin/env bash
# A PostgreSQL 15 primary and one synchronous streaming standby on loopback, in a directory of
# their own, for trying and testing "nothing acknowledged lost" on this machine: a commit on the
# primary returns only once the standby has it. Both nodes name the other in
# synchronous_standby_names, so a promoted standby waits for a standby too rather than
# committing alone. Runs the servers as the `postgres` user (PostgreSQL refuses root).
#
# Usage: scripts/postgres-pair.sh start DIR [PRIMARY_PORT [STANDBY_PORT]]   (default 55432 55433)
#        scripts/postgres-pair.sh status DIR      which node is primary, and the replication state
#        scripts/postgres-pair.sh promote DIR     promote the standby (after the primary is gone)
#        scripts/postgres-pair.sh stop DIR        stop both and leave DIR
# Needs Debian's postgresql (scripts/setup.sh installs it). Databases: `courtside`, owner
# `courtside` (trust on loopback: a venue sets passwords and TLS, see docs/POSTGRESQL.md).
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
as_postgres() { runuser -u postgres -- "$@"; }
node_port() { cat "$dir/$1.port"; }
psql_at() { as_postgres /usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$1" -U postgres -d postgres -Atqc "$2" 2>/dev/null || true; }

case "$command" in
start)
    primary_port="${3:-55432}"
    standby_port="${4:-55433}"
    [ -e "$dir/primary" ] && { echo "postgres-pair: $dir already holds a pair (stop it first)" >&2; exit 1; }
    mkdir -p "$dir"
    chown postgres: "$dir"
    as_postgres "$bin/initdb" -D "$dir/primary" -U postgres --auth=trust >"$dir/initdb.log"
    cat >>"$dir/primary/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $primary_port
unix_socket_directories = '$dir'
wal_level = replica
max_wal_senders = 4
hot_standby = on
synchronous_commit = on
cluster_name = 'primary'
CONF
    echo "host replication postgres 127.0.0.1/32 trust" >>"$dir/primary/pg_hba.conf"
    as_postgres "$bin/pg_ctl" -D "$dir/primary" -l "$dir/primary.log" -w start >/dev/null
    echo "$primary_port" >"$dir/primary.port"
    psql_at "$primary_port" "CREATE ROLE courtside LOGIN" >/dev/null
    psql_at "$primary_port" "CREATE DATABASE courtside OWNER courtside" >/dev/null
    # The standby: a base backup that streams from the primary under the name the primary waits for.
    as_postgres "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$dir/standby" -R -X stream --checkpoint=fast \
        -d "application_name=standby" >/dev/null
    cat >>"$dir/standby/postgresql.conf" <<CONF
port = $standby_port
cluster_name = 'standby'
# Once promoted, it waits for the old primary (rebuilt as its standby) rather than commit alone.
synchronous_standby_names = 'primary'
CONF
    as_postgres "$bin/pg_ctl" -D "$dir/standby" -l "$dir/standby.log" -w start >/dev/null
    echo "$standby_port" >"$dir/standby.port"
    # Synchronous only once the standby streams: set before, every commit (the role above
    # too) would wait for a standby that does not exist yet.
    for _ in $(seq 50); do
        [ "$(psql_at "$primary_port" "SELECT state FROM pg_stat_replication WHERE application_name = 'standby'")" = streaming ] && break
        sleep 0.2
    done
    psql_at "$primary_port" "ALTER SYSTEM SET synchronous_standby_names = 'standby'" >/dev/null
    psql_at "$primary_port" "SELECT pg_reload_conf()" >/dev/null
    for _ in $(seq 50); do
        [ "$(psql_at "$primary_port" "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'")" = sync ] && break
        sleep 0.2
    done
    "$0" status "$dir"
    ;;
status)
    for node in primary standby; do
        [ -e "$dir/$node.port" ] || continue
        port="$(node_port "$node")"
        recovery="$(psql_at "$port" "SELECT pg_is_in_recovery()")"
        case "$recovery" in
        t) role="standby" ;;
        f) role="primary" ;;
        *) role="down" ;;
        esac
        replication="$(psql_at "$port" "SELECT string_agg(application_name || ' ' || sync_state, ', ') FROM pg_stat_replication")"
        echo "$node: 127.0.0.1:$port $role${replication:+ (replicating to: $replication)}"
    done
    ;;
promote)
    as_postgres "$bin/pg_ctl" -D "$dir/standby" -w promote >/dev/null
    "$0" status "$dir"
    ;;
stop)
    for node in standby primary; do
        [ -d "$dir/$node" ] && as_postgres "$bin/pg_ctl" -D "$dir/$node" -m fast -w stop >/dev/null 2>&1 || true
    done
    echo "stopped; $dir is left as it is"
    ;;
*)
    echo "postgres-pair: unknown command $command (start, status, promote, stop)" >&2
    exit 2
    ;;
esac
