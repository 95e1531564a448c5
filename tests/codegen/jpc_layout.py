#!/usr/bin/env python3
"""The functions jpc_gen compiled from the JMESPath compliance suite, the AWS waiters and its random
expressions, laid out as `anvil gen` lays out a file, compared with the project's clang-format.

Usage: jpc_layout.py CLANG_FORMAT STYLE_FILE JPC_GENERATED_C

Every function must be laid out as clang-format lays it out, except, counted and named, a function nested
10 levels or more (a statement indented 40 columns or more): clang-format's choices there turn on penalties for
lines that cannot fit, which anvil's line breaker does not model. No such nest occurs in what `anvil gen`
writes for the AWS models, which codegen.models_compile checks whole.
"""
import os
import re
import subprocess
import sys
import tempfile

DEEP = 40


def main():
    clang_format, style, path = sys.argv[1:4]
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    cut = next(i for i, line in enumerate(lines) if line.startswith("const struct jpc_expr_case"))
    old = lines[:cut]
    while old and not old[-1].strip():
        old.pop()  # the blank lines before the tables: the end of the text compared
    # Each line's function: a definition starts at column 0 with its name before the first '('.
    # A statement (a line after one ending with ';', '{' or '}') indented DEEP columns or more makes a deep nest;
    # a continuation line does not.
    owner, current, functions, previous = [], None, {}, ""
    for line in old:
        m = re.match(r"^(?:static )?[a-z][^;(]*?\b(\w+)\(", line)
        if m:
            current = m.group(1)
            functions.setdefault(current, {"deep": False})
        elif current and line.strip() and previous.rstrip().endswith((";", "{", "}")):
            indent = len(line) - len(line.lstrip())
            functions[current]["deep"] |= indent >= DEEP
        owner.append(current)
        previous = line
    with tempfile.TemporaryDirectory() as work:
        mine = os.path.join(work, "jpc.c")
        with open(mine, "w", encoding="utf-8") as f:
            f.write("\n".join(old) + "\n")
        theirs = os.path.join(work, "formatted.c")
        with open(theirs, "w", encoding="utf-8") as f:
            subprocess.run([clang_format, "--style=file:" + style, mine], stdout=f, check=True)
        diff = subprocess.run(["diff", mine, theirs], capture_output=True, text=True, check=False).stdout
    differing = set()
    for m in re.finditer(r"^(\d+)(?:,(\d+))?[acd]", diff, re.M):
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        for n in range(max(first, 1), last + 1):
            differing.add(owner[min(n, len(owner)) - 1])
    differing.discard(None)
    deep = sorted(f for f in differing if functions[f]["deep"])
    wrong = sorted(differing - set(deep))
    print(f"jpc layout: {len(functions)} functions, {len(functions) - len(differing)} laid out as clang-format "
          f"lays them out; {len(deep)} nested 10 levels or more differ ({', '.join(deep) or 'none'})")
    for f in wrong:
        print(f"FAIL {f}: laid out otherwise than clang-format lays it out")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
