"""botocore's endpoint rules engine (botocore/endpoint_provider.py) on
botocore's own endpoint-rule-set-1.json files: the peer of bench_endpoint.

Usage: peer_botocore.py DATA_DIR CASES_JSON ROUNDS ITERATIONS

DATA_DIR is botocore's data folder (Debian's python3-botocore:
/usr/lib/python3/dist-packages/botocore/data); CASES_JSON a file bench_endpoint
writes: [{"name", "rules" (a path under DATA_DIR), "params"}]. For each case
prints one tab-separated line:

    NAME  SECONDS_PER_RESOLVE  URL  PROPERTIES_JSON  HEADERS_JSON

the seconds being the median over ROUNDS of (time for ITERATIONS resolves) /
ITERATIONS. Then one line "load RULES SECONDS" per rule set: building the
EndpointProvider from the already-parsed JSON (the Python start-up and the
JSON parse are outside every timing); last "version BOTOCORE PYTHON".

botocore's EndpointProvider.resolve_endpoint is wrapped in
functools.lru_cache(maxsize=100) keyed on the parameters, so calling it in a
loop with the same parameters would time a dictionary lookup, not a
resolution. The peer calls the function under the cache,
EndpointProvider.resolve_endpoint.__wrapped__ (which functools.lru_cache
always sets), so every call evaluates the rules; it checks afterwards that
the cache stayed empty.
"""
import json
import os
import statistics
import sys
import time

import botocore
from botocore.endpoint_provider import EndpointProvider


def main():
    data_dir, cases_path, rounds, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open(cases_path) as f:
        cases = json.load(f)
    with open(os.path.join(data_dir, 'partitions.json')) as f:
        partitions = json.load(f)
    providers, loads = {}, []
    for case in cases:
        if case['rules'] in providers:
            continue
        with open(os.path.join(data_dir, case['rules'])) as f:
            rule_set = json.load(f)
        start = time.perf_counter()
        providers[case['rules']] = EndpointProvider(rule_set, partitions)
        loads.append((case['rules'], time.perf_counter() - start))
    resolve = EndpointProvider.resolve_endpoint.__wrapped__
    for case in cases:
        provider, params = providers[case['rules']], case['params']
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            for _ in range(iterations):
                endpoint = resolve(provider, **params)
            times.append((time.perf_counter() - start) / iterations)
        if provider.resolve_endpoint.cache_info().currsize != 0:
            sys.exit('peer_botocore.py: the lru_cache was used')
        print('\t'.join([case['name'], repr(statistics.median(times)), endpoint.url,
                         json.dumps(endpoint.properties, separators=(',', ':')),
                         json.dumps(endpoint.headers, separators=(',', ':'))]))
    for rules, seconds in loads:
        print('load\t%s\t%r' % (rules, seconds))
    print('version\t%s\t%s' % (botocore.__version__, sys.version.split()[0]))


main()
