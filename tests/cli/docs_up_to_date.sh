#!/usr/bin/env bash
# Fails when docs/cli.md's generated blocks differ from what anvil-gen-docs writes from the
# command and option tables now.
# Usage: docs_up_to_date.sh ANVIL_GEN_DOCS DOCS_CLI_MD SCRATCH_FILE
set -uo pipefail
gen=$1 doc=$2 scratch=$3
"$gen" markdown "$doc" "$scratch" || exit 1
if ! diff -u "$doc" "$scratch"; then
  echo "FAIL: docs/cli.md's generated blocks are out of date (- the file, + the tables)."
  echo "Run scripts/gen-cli-docs to write them anew."
  exit 1
fi
echo "PASS docs/cli.md is up to date"
