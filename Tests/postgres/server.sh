#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: `server.sh start DIR PORT` creates a cluster in DIR and serves it
# on 127.0.0.1:PORT (trust authentication, loopback only); `server.sh stop DIR` stops it and removes DIR.
set -euo pipefail
action=$1
dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
as_owner() {
    # PostgreSQL refuses to run as root: the cluster belongs to the postgres account when we are root.
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$action" in
start)
    port=$3
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c max_connections=200 -c fsync=on" start; then
        cat "$dir/server.log" >&2
        exit 1
    fi
    echo "PostgreSQL serving on 127.0.0.1:$port"
    ;;
stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop || true
    rm -rf "$dir"
    ;;
esac
