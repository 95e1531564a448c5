"""Peer for bench_waiter: botocore's waiter loop (Debian's python3-botocore).

Runs DynamoDB's TableExists waiter (the botocore waiters-2 definition given
on the command line) against an in-process fake DescribeTable that answers
CREATING until the last attempt, with time.sleep replaced by a no-op, and
prints the cost of one attempt in nanoseconds: `botocore_ns_per_attempt N`.
Usage: peer_botocore.py WAITERS_2_JSON ATTEMPTS
"""
import json
import sys
import time

import botocore.waiter as bw


def main():
    path, attempts = sys.argv[1], int(sys.argv[2])
    with open(path) as f:
        model = json.load(f)
    config = dict(model["waiters"]["TableExists"])
    config["maxAttempts"] = attempts + 1
    calls = [0]
    creating = {"Table": {"TableName": "orders", "TableStatus": "CREATING", "ItemCount": 0}}
    active = {"Table": {"TableName": "orders", "TableStatus": "ACTIVE", "ItemCount": 0}}

    def describe_table(**kwargs):
        calls[0] += 1
        return active if calls[0] >= attempts else creating

    bw.time.sleep = lambda seconds: None
    waiter = bw.Waiter("TableExists", bw.SingleWaiterConfig(config), describe_table)
    start = time.perf_counter_ns()
    waiter.wait(TableName="orders")
    elapsed = time.perf_counter_ns() - start
    assert calls[0] == attempts, calls[0]
    print("botocore_ns_per_attempt %.1f" % (elapsed / attempts))


if __name__ == "__main__":
    main()
