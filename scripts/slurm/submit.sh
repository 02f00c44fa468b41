#!/bin/bash
# Submits a sharded run to Slurm: a job array of SHARDS tasks, one shard
# each, and a merge job that starts once every task succeeded.
#
#   scripts/slurm/submit.sh SHARDS OUT COMMAND [OPTIONS...]
#   scripts/slurm/submit.sh 4 runs/quick reproduce --quick --seed 7
#   scripts/slurm/submit.sh 8 runs/c4 calibrate connect4
#   scripts/slurm/submit.sh 4 runs/m match connect4 mcts:iters=2000 alphabeta:depth=6 --games 400
#
# Prints `array=JOBID` and `merge=JOBID`. Other sbatch settings come from
# sbatch's own environment variables (SBATCH_PARTITION, SBATCH_TIMELIMIT,
# SBATCH_ACCOUNT, ...); CPUS_PER_TASK sets the array tasks' CPUs (default 1;
# each task runs that many worker threads); XTASK names the binary (default:
# target/release/xtask of this checkout). OUT must be on a file system every
# node sees.

set -euo pipefail

if (( $# < 3 )); then
    echo "usage: $0 SHARDS OUT COMMAND [OPTIONS...]" >&2
    exit 2
fi
shards=$1
out=$2
shift 2
if ! [[ $shards =~ ^[1-9][0-9]*$ ]]; then
    echo "submit.sh: SHARDS must be a positive whole number, got $shards" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
export XTASK=${XTASK:-$(cd "$here/../.." && pwd)/target/release/xtask}
if [[ ! -x $XTASK ]]; then
    echo "submit.sh: $XTASK is not an executable: cargo build --release -p xtask, or set XTASK" >&2
    exit 2
fi

array=$(sbatch --parsable --array="0-$((shards - 1))" --cpus-per-task="${CPUS_PER_TASK:-1}" --chdir="$out" \
    --export="ALL,SHARDS=$shards,OUT=$out,XTASK=$XTASK" "$here/shard.sbatch" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --chdir="$out" \
    --export="ALL,OUT=$out,XTASK=$XTASK" "$here/merge.sbatch" "$@")
merge=${merge%%;*}
echo "array=$array"
echo "merge=$merge"
