#!/usr/bin/env bash
# Starts N blksim node JVMs on loopback for trying a cluster on one machine, or stops them.
#   cluster-config/local-nodes.sh start N [BASE_PORT]   # nodes on BASE_PORT.. (default 25520)
#   cluster-config/local-nodes.sh stop                  # SIGTERM to every node started here
# The first node forms the cluster, the others join it. Then, from another shell:
#   ./blksim run SCENARIO --join 127.0.0.1:25520 --nodes N+1 --partitions=node
#   ./blksim sweep SCENARIO --vary seed=1,2,3,4 --join 127.0.0.1:25520 --nodes N+1
# Logs and PIDs go to ${BLKSIM_NODES_DIR:-/tmp/blksim-nodes}. Extra options for every node (TLS:
# --tls=required --tls-keystore FILE) go in BLKSIM_NODE_OPTS.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${BLKSIM_NODES_DIR:-/tmp/blksim-nodes}"
cmd="${1:-}"
case "$cmd" in
  start)
    n="${2:?usage: $0 start N [BASE_PORT]}"
    base="${3:-25520}"
    if ! [[ "$n" =~ ^[1-9][0-9]*$ ]] || ! [[ "$base" =~ ^[0-9]+$ ]]; then
      echo "local-nodes.sh: N must be a positive number and BASE_PORT a port, was '$n' '$base'" >&2
      exit 2
    fi
    mkdir -p "$dir"
    "$home/blksim" --version >/dev/null   # build once, before the nodes start in parallel
    for ((i = 0; i < n; i++)); do
      port=$((base + i))
      seed=()
      if ((i > 0)); then seed=(--seed "127.0.0.1:$base"); fi
      # shellcheck disable=SC2086
      nohup "$home/blksim" node --port "$port" "${seed[@]}" ${BLKSIM_NODE_OPTS:-} \
        >"$dir/node-$port.log" 2>&1 &
      echo $! >"$dir/node-$port.pid"
      if ((i == 0)); then
        # the others join the first: wait until it is up
        for _ in $(seq 1 120); do
          grep -q "blksim node up" "$dir/node-$port.log" 2>/dev/null && break
          sleep 0.5
        done
      fi
      echo "node $((i + 1)) of $n: 127.0.0.1:$port (log $dir/node-$port.log)"
    done
    ;;
  stop)
    shopt -s nullglob
    for f in "$dir"/node-*.pid; do
      kill -TERM "$(cat "$f")" 2>/dev/null || true
      rm -f "$f"
    done
    echo "stopped the nodes of $dir"
    ;;
  *)
    echo "usage: $0 start N [BASE_PORT] | stop" >&2
    exit 2
    ;;
esac
