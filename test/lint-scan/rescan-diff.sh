#!/usr/bin/env bash
# Compares two rescan TSVs (rescan.sh output, either mode) keyed by (repo, path, line, rule): prints each finding
# only in A with '-', only in B with '+' (with B's / A's message), then the counts. Exit status 0 either way.
# Usage: bash test/lint-scan/rescan-diff.sh A.tsv B.tsv
set -euo pipefail
export LC_ALL=C
a="${1:?usage: rescan-diff.sh A.tsv B.tsv}"; b="${2:?usage: rescan-diff.sh A.tsv B.tsv}"
awk -F'\t' '
  FNR == 1 { file++ }
  /^#/ || NF < 4 { next }
  { k = $1 FS $2 FS $3 FS $4 }
  file == 1 { if (!(k in A)) { A[k] = $0; na++ } next }
  file == 2 { if (!(k in B)) { B[k] = $0; nb++ } }
  END {
    for (k in A) if (!(k in B)) { print "-\t" A[k] | "sort -t\"\t\" -k2,2 -k3,3 -k4,4n -k5,5"; only_a++ }
    close("sort -t\"\t\" -k2,2 -k3,3 -k4,4n -k5,5")
    for (k in B) if (!(k in A)) { print "+\t" B[k] | "sort -t\"\t\" -k2,2 -k3,3 -k4,4n -k5,5"; only_b++ }
    close("sort -t\"\t\" -k2,2 -k3,3 -k4,4n -k5,5")
    printf "A %d findings, B %d; only in A (-) %d, only in B (+) %d, in both %d\n", na, nb, only_a, only_b, na - only_a
  }' "$a" "$b"
