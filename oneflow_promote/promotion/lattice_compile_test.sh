#!/bin/bash
# A policy whose edges are not a lattice must not compile; a valid one must.
set -u
cxx=${CXX:-g++}
src=oneflow_promote/promotion/testdata/policy_edges.cc
compile() { "$cxx" -std=c++17 -fsyntax-only -I. "$@" "$src" 2>&1; }

failures=0
out=$(compile -DVALID) || { echo "FAIL: a valid policy did not compile:"; echo "$out"; failures=1; }
for bad in CYCLE NO_LEAST_UPPER_BOUND; do
  if out=$(compile -D$bad); then
    echo "FAIL: the $bad policy compiled"; failures=1
  elif ! grep -q "must form a lattice" <<<"$out"; then
    echo "FAIL: the $bad policy failed for another reason:"; echo "$out"; failures=1
  else
    echo "ok: the $bad policy is rejected by the compiler"
  fi
done
exit $failures
