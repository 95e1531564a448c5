#!/usr/bin/env bash
# anvil gen's output for DynamoDB against the golden copy beside this script (the embedded model's
# text left out of the comparison: it follows the model). Catches any unintended change to what
# gen writes; after an intended one, refresh the copy with --update.
# Usage: golden.sh ANVIL MODELS_DIR [--update]
set -euo pipefail
anvil=$1 models=$2
golden=$(cd "$(dirname "$0")/golden" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$anvil" gen --model "$models/dynamodb-2012-08-10.json" --prefix ddb --out "$work" 2> /dev/null
# The source without the model literal (from its declaration to the line ending the string).
awk '/^static const char ddb_model_text\[\] =/ {skip = 1; print "/* (the model text) */"; next}
     skip && /";$/ {skip = 0; next}
     !skip' "$work/ddb.c" > "$work/ddb.c.golden"
cp "$work/ddb.h" "$work/ddb.h.golden"
if [[ ${3:-} == --update ]]; then
  cp "$work/ddb.h.golden" "$work/ddb.c.golden" "$golden/"
  echo "updated $golden"
  exit 0
fi
status=0
for f in ddb.h.golden ddb.c.golden; do
  if ! diff -u "$golden/$f" "$work/$f"; then
    echo "FAIL: anvil gen's ${f%.golden} differs from tests/codegen/golden/$f (intended? run golden.sh ANVIL MODELS --update)"
    status=1
  fi
done
[[ $status == 0 ]] && echo "PASS anvil gen golden (DynamoDB)"
exit $status
