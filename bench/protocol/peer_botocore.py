"""botocore's EC2 response parser on a DescribeInstances document: the peer of
bench_protocol. Usage: peer_botocore.py DOCUMENT ROUNDS
Prints the median seconds of one parse (the Python start-up and the model load
are outside the timing), then the number of instances the output holds."""
import statistics
import sys
import time

import botocore.parsers
import botocore.session

path, rounds = sys.argv[1], int(sys.argv[2])
body = open(path, 'rb').read()
model = botocore.session.get_session().get_service_model('ec2')
shape = model.operation_model('DescribeInstances').output_shape
parser = botocore.parsers.create_parser('ec2')
response = {'body': body, 'headers': {}, 'status_code': 200}
times = []
for _ in range(rounds):
    start = time.perf_counter()
    out = parser.parse(response, shape)
    times.append(time.perf_counter() - start)
count = sum(len(r['Instances']) for r in out['Reservations'])
print(statistics.median(times), count)
