#!/usr/bin/env bash
# CI for the Python package: installs it from the checkout into a throwaway
# virtual environment with pip (the command docs/python.md gives) and runs
# its pytest suite. Skips, saying so, where Python 3, pip or venv is absent.
#
# The build reuses the workspace's target directory (CARGO_TARGET_DIR), so a
# second run rebuilds only what changed. It is a `dev` build (the workspace's
# crates unoptimised, their dependencies optimised, no debug info): a cold
# release build of the extension takes about ten minutes on two cores, the
# dev build a few, and the tests run in under a minute on it. Set
# MATURIN_PEP517_ARGS (e.g. to "--release") to choose otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

if ! command -v python3 >/dev/null 2>&1; then
  echo "note: python3 is absent: skipping the Python package's tests"
  exit 0
fi
if ! python3 -m pip --version >/dev/null 2>&1; then
  echo "note: pip is absent: skipping the Python package's tests"
  exit 0
fi
if ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
  echo "note: python3's venv (with ensurepip) is absent: skipping the Python package's tests"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
py="$work/venv/bin/python"
# The venv's programs first on PATH: maturin's build backend runs the
# `maturin` program by name, and without build isolation only the venv
# has it.
export PATH="$work/venv/bin:$PATH"
start=$SECONDS
"$py" -m pip install --quiet --disable-pip-version-check "maturin>=1.9,<2" pytest
echo "::: $((SECONDS - start)) s: pip install maturin pytest"

start=$SECONDS
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
export MATURIN_PEP517_ARGS="${MATURIN_PEP517_ARGS:---profile dev}"
# No debug info, as the `test` profile has it: the dependencies' builds are
# then the ones `cargo test --workspace` made (same settings), not a second
# copy.
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-0}"
# --no-build-isolation: the maturin just installed builds the wheel (no
# second download into an isolated environment).
"$py" -m pip install --disable-pip-version-check --no-build-isolation ./crates/python
echo "::: $((SECONDS - start)) s: pip install ./crates/python"

start=$SECONDS
# From the tests' folder, so that `backup_rules` is the installed package.
(cd crates/python/tests && "$py" -m pytest -q -rs)
echo "::: $((SECONDS - start)) s: pytest crates/python/tests"
