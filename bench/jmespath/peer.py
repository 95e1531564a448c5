#!/usr/bin/python3
"""python3-jmespath peer: reads a plan, prints "name<TAB>seconds per operation" per case.

Same method as every peer: one warm-up, then batches sized to ~50 ms, median of 7.
"""
import json
import sys
import time

import jmespath
import jmespath.parser

# jmespath.compile() answers repeated expressions from a class-wide cache, which
# would time a dictionary lookup; parse and full modes use the uncached parser.
PARSER = jmespath.parser.Parser()


def measure(op):
    op()
    start = time.perf_counter()
    op()
    once = max(time.perf_counter() - start, 1e-7)
    iterations = max(1, int(0.05 / once))
    samples = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(iterations):
            op()
        samples.append((time.perf_counter() - start) / iterations)
    samples.sort()
    return samples[len(samples) // 2]


def main():
    plan = json.load(open(sys.argv[1]))
    docs = {}
    for case in plan:
        if case["doc"] not in docs:
            with open(case["doc"]) as f:
                docs[case["doc"]] = json.load(f)
        data = docs[case["doc"]]
        expr = case["expr"]
        if case["mode"] == "parse":
            op = lambda: PARSER._do_parse(expr)
        elif case["mode"] == "full":
            op = lambda: PARSER._do_parse(expr).search(data)
        else:
            compiled = jmespath.compile(expr)
            op = lambda: compiled.search(data)
        print("%s\t%.9g" % (case["name"], measure(op)), flush=True)


main()
