#!/usr/bin/env python3
"""Many waits at once (issue 22), anvil against the tools an operator has today.

A fleet of CloudFormation stacks f1..fN on the scripted fake (tests/servers/fake_aws.js,
127.0.0.1, every SigV4 signature checked) becomes ready over SPREAD seconds of wall time
(stack I at SPREAD * I / N), the fake throttling DescribeStacks past a token bucket of RATE
a second. Each peer waits on the whole fleet with StackCreateComplete and the waiter's own
delays (30 s minimum; 120 s maximum where the tool backs off):

  anvil   anvil wait --many, the CLI's defaults (64 in flight, adaptive retry mode)
  js      the JS SDK v3 waiter, every stack at once with Promise.all in one node process
  aws     xargs -P 64 aws cloudformation wait stack-create-complete (Debian's aws-cli v2),
          one process per stack

Per run and peer: the wall time from the last stack's readiness to the peer's exit, the
requests and throttled requests the fake saw, when it throttled last, how long after its
readiness each stack was first answered ready (p99, max), the longest gap between two
answered polls of one stack, the peer's peak memory (its whole process tree's summed PSS,
sampled every 500 ms; and the largest single process's own peak RSS, every 50 ms) and its CPU time (the
tree's, from wait4). A run counts only if the peer exits 0 and the fake saw every stack ready.
Peers run interleaved, rotated each run; ratios are peer / anvil, min-median-max over runs.
Real time passes: a benchmark, not a test (about 10 minutes a run with every tier).

Usage: run.py --anvil ANVIL --model CFN_MODEL --node-modules DIR [--runs 3]
              [--tier N:PEER,PEER ...] [--spread 60] [--rate 500] [--burst 500]
       run.py --smoke --anvil ANVIL --model CFN_MODEL
(--smoke: 5 stacks ready at once, anvil only, one run: the runner, the fake's fleet and its
counts checked in a second, nothing timed; `make test` runs it as bench.wait_many_smoke.)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AWS = '/usr/bin/aws'
MAX_WAIT = 3600


def tree_memory(pgid, runner, with_pss):
    """(summed Pss or 0, largest VmHWM) of the processes in process group PGID, in bytes. Pss shares
    each page among the processes mapping it, so 64 aws-cli processes count their interpreter
    once, not 64 times. A child not yet past its exec (still named like this RUNNER) is skipped:
    its memory is the runner's, which is also why wait4's ru_maxrss, kept across exec, is not
    used."""
    pss = hwm = 0
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open(f'/proc/{pid}/stat', 'rb') as f:
                stat = f.read()
            if int(stat.rsplit(b')', 1)[1].split()[2]) != pgid:
                continue
            with open(f'/proc/{pid}/status') as f:
                status = dict(line.split(':', 1) for line in f if ':' in line)
            if status.get('Name', '').strip() == runner or 'VmHWM' not in status:
                continue
            rollup = {}
            if with_pss:  # smaps_rollup walks the page tables: not every tick
                with open(f'/proc/{pid}/smaps_rollup') as f:
                    rollup = dict(line.split(':', 1) for line in f if ':' in line)
        except (OSError, ValueError, IndexError):
            continue
        pss += int(rollup.get('Pss', '0 kB').split()[0]) * 1024
        hwm = max(hwm, int(status['VmHWM'].split()[0]) * 1024)
    return pss, hwm


class Fake:
    """The fake service for one peer's run: a fresh process, so no state carries over."""

    def __init__(self, work, count, spread, rate, burst, env):
        script = os.path.join(work, 'fleet.json')
        with open(script, 'w') as f:
            json.dump({'fleet': {'prefix': 'f', 'count': count, 'spread_ms': spread * 1000},
                       'bucket': {'rate': rate, 'burst': burst}}, f)
        self.proc = subprocess.Popen(['node', os.path.join(ROOT, 'tests/servers/fake_aws.js'), script, '/dev/null'],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        word, port = self.proc.stdout.readline().decode().split()
        assert word == 'PORT', word
        self.url = f'http://127.0.0.1:{port}'

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=30) as r:
            return json.loads(r.read())

    def stop(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def command(peer, args, inputs, names, url):
    if peer == 'anvil':
        return [args.anvil, 'wait', '--model', args.model, 'StackCreateComplete', '--many', inputs,
                '--endpoint-url', url, '--max-wait', str(MAX_WAIT), '--progress', 'none'], None
    if peer == 'js':
        return ['node', os.path.join(ROOT, 'bench/wait_many/peer_js.js'), inputs, url, str(MAX_WAIT)], None
    return ['xargs', '-P', '64', '-I{}', AWS, 'cloudformation', 'wait', 'stack-create-complete',
            '--stack-name', '{}', '--endpoint-url', url], names


def run_peer(peer, args, work, count, env):
    inputs = os.path.join(work, f'inputs.{count}.jsonl')
    names = os.path.join(work, f'names.{count}')
    if not os.path.exists(inputs):
        with open(inputs, 'w') as f, open(names, 'w') as g:
            for i in range(1, count + 1):
                f.write(json.dumps({'StackName': f'f{i}'}) + '\n')
                g.write(f'f{i}\n')
    fake = Fake(work, count, args.spread, args.rate, args.burst, env)
    try:
        cmd, stdin_path = command(peer, args, inputs, names, fake.url)
        out_path = os.path.join(work, f'out.{peer}')
        with open(out_path, 'wb') as out, open(stdin_path or os.devnull, 'rb') as stdin:
            fake.get('/__fleet/start')
            start = time.monotonic()
            proc = subprocess.Popen(cmd, stdin=stdin, stdout=out, stderr=subprocess.STDOUT, env=env,
                                    start_new_session=True)
            peak = [0, 0]  # summed Pss, largest VmHWM
            done = threading.Event()
            with open('/proc/self/comm') as f:
                runner = f.read().strip()

            def sample():
                tick = 0
                while not done.wait(0.05):
                    pss, hwm = tree_memory(proc.pid, runner, tick % 10 == 0)
                    tick += 1
                    peak[0], peak[1] = max(peak[0], pss), max(peak[1], hwm)
            sampler = threading.Thread(target=sample)
            sampler.start()
            _, status, usage = os.wait4(proc.pid, 0)
            end = time.monotonic()
            done.set()
            sampler.join()
            proc.returncode = os.waitstatus_to_exitcode(status)
        stats = fake.get('/__fleet/stats')
    finally:
        fake.stop()
    with open(out_path, 'rb') as f:
        text = f.read().decode('utf-8', 'replace')
    if peer == 'anvil':
        success = text.count('"reason":"success"')
    elif peer == 'js':
        success = json.loads(text.strip().splitlines()[-1])['success'] if text.strip() else 0
    else:
        success = count if proc.returncode == 0 else None
    if success != count or proc.returncode != 0 or stats['seen_ready'] != count:
        sys.exit(f'bench wait_many: {peer} on {count} stacks: {success} succeeded, exit {proc.returncode}, '
                 f'{stats["seen_ready"]} seen ready by the fake: {text[-600:]}')
    return {
        'after_ready_s': end - start - args.spread,
        'requests': stats['requests'],
        'throttled': stats['throttled'],
        'last_throttled_s': None if stats['last_throttled_ms'] is None else stats['last_throttled_ms'] / 1000,
        'latency_p99_s': stats['latency_ms']['p99'] / 1000,
        'latency_max_s': stats['latency_ms']['max'] / 1000,
        'max_gap_s': stats['max_answered_gap_ms'] / 1000,
        'pss_mb': peak[0] / 1e6,
        'rss_mb': peak[1] / 1e6,
        'cpu_s': usage.ru_utime + usage.ru_stime,
        'seen_ready': stats['seen_ready'],
    }


def shown(value, fmt):
    return 'never' if value is None else fmt.format(value)


def spread3(values, fmt):
    values = sorted(v for v in values if v is not None)
    if not values:
        return 'never'
    return '-'.join(fmt.format(v) for v in (values[0], statistics.median(values), values[-1]))


COLUMNS = [('after_ready_s', 'after ready s', '{:.1f}'), ('requests', 'requests', '{:.0f}'),
           ('throttled', 'throttled', '{:.0f}'), ('last_throttled_s', 'last thr. s', '{:.1f}'),
           ('latency_p99_s', 'seen p99 s', '{:.1f}'), ('latency_max_s', 'seen max s', '{:.1f}'),
           ('max_gap_s', 'max gap s', '{:.1f}'), ('pss_mb', 'peak PSS MB', '{:.1f}'),
           ('rss_mb', 'max 1 RSS MB', '{:.1f}'), ('cpu_s', 'CPU s', '{:.2f}')]


def report(count, peers, results):
    print(f'\n== {count} stacks ready over the fleet\'s spread; min-median-max over {len(results[peers[0]])} runs')
    for key, label, fmt in COLUMNS:
        print(f'  {label:<13}' + ''.join(f'  {p}: {spread3([r[key] for r in results[p]], fmt):<24}' for p in peers))
    for p in peers:
        if p == 'anvil' or 'anvil' not in results:
            continue
        print(f'  {p} / anvil:  ' + '  '.join(
            f'{label} ' + spread3([b[key] / a[key] for a, b in zip(results['anvil'], results[p]) if a[key]], '{:.1f}') + 'x'
            for key, label in (('requests', 'requests'), ('cpu_s', 'CPU'), ('pss_mb', 'PSS'))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--anvil', required=True)
    ap.add_argument('--model', required=True)
    ap.add_argument('--node-modules')
    ap.add_argument('--smoke', action='store_true')
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--tier', action='append', help='N:PEER,PEER (default 640:anvil,js,aws and 10000:anvil,js)')
    ap.add_argument('--spread', type=float, default=60)
    ap.add_argument('--rate', type=float, default=500)
    ap.add_argument('--burst', type=float, default=500)
    args = ap.parse_args()
    if args.smoke:
        args.runs, args.tier, args.spread = 1, ['5:anvil'], 0
    elif not args.node_modules:
        ap.error('--node-modules is required (scripts/bench-peers installs the JS SDK there)')
    tiers = []
    for t in args.tier or ['640:anvil,js,aws', '10000:anvil,js']:
        n, peers = t.split(':')
        tiers.append((int(n), peers.split(',')))
    if any('aws' in p for _, p in tiers) and not os.access(AWS, os.X_OK):
        sys.exit("bench wait_many: Debian's awscli is missing (apt install awscli)")
    env = {k: v for k, v in os.environ.items() if not k.startswith('AWS_')}
    work = tempfile.mkdtemp(prefix='anvil-wait-many.')
    env.update(AWS_ACCESS_KEY_ID='AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY='bench-secret', AWS_REGION='us-east-1',
               AWS_DEFAULT_REGION='us-east-1', AWS_EC2_METADATA_DISABLED='true', AWS_PAGER='',
               AWS_CONFIG_FILE=os.path.join(work, 'none'), AWS_SHARED_CREDENTIALS_FILE=os.path.join(work, 'none'),
               NODE_PATH=os.path.abspath(args.node_modules or work))
    print(f'== anvil wait --many vs the JS SDK v3 waiter and xargs -P 64 aws-cli: a fleet ready over {args.spread:g} s, '
          f'the service throttling past {args.rate:g} req/s (burst {args.burst:g})')
    results = {n: {p: [] for p in peers} for n, peers in tiers}
    for run in range(args.runs):
        for n, peers in tiers:
            order = peers[run % len(peers):] + peers[:run % len(peers)]
            for p in order:
                r = run_peer(p, args, work, n, env)
                results[n][p].append(r)
                if args.smoke and (r['requests'] != n or r['seen_ready'] != n or r['throttled']):
                    sys.exit(f'bench wait_many smoke: {n} stacks ready at once, want {n} requests, '
                             f'each seen ready, none throttled: {r}')
                print(f'  run {run + 1}, {n} stacks, {p}: ' + ', '.join(f'{label} ' + shown(r[key], fmt)
                                                                        for key, label, fmt in COLUMNS), flush=True)
    for n, peers in tiers:
        report(n, peers, results[n])
    subprocess.run(['rm', '-rf', work], check=False)


if __name__ == '__main__':
    main()
