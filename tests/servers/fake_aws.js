// A scripted fake of the AWS services no npm emulator covers, for the
// end-to-end waits: CloudFormation (awsQuery), EC2 (ec2Query) and Lambda
// (restJson1), answering with documents shaped like the services' own
// (namespaces, wrappers, request ids, error documents). It listens on
// 127.0.0.1 and a free port, prints "PORT <n>", checks every request's SigV4
// signature (sigv4.js), and stops when its standard input closes.
//
// Usage: node fake_aws.js SCRIPT LOG
// SCRIPT is JSON naming each resource's states, one per request for it (the
// last one repeats):
//   {"stacks": {"web": ["CREATE_IN_PROGRESS", "CREATE_COMPLETE"]},
//    "instances": {"i-0123456789abcdef0": ["pending", "running"]},
//    "functions": {"fn": ["Pending", "Active"]}}
//   "throttle_every": N (optional) answers every Nth DescribeStacks with
//   CloudFormation's Throttling error instead (logged "... throttled"),
//   before the stack's state moves; "throttle_rate": R answers so every
//   DescribeStacks past the Rth signed in the same second (its X-Amz-Date:
//   the client's clock, fake or not, so a test runs in no time);
//   "hang": [NAME...] never answers DescribeStacks for those stacks (logged
//   "... hang" when one arrives), for tests that interrupt a request in flight.
//   "fleet": {"prefix": "f", "count": N, "spread_ms": 60000} (for bench/): stacks
//   f1..fN in wall time: fI is CREATE_IN_PROGRESS until spread_ms * I / N ms after
//   the fleet's start, CREATE_COMPLETE from then on; "bucket": {"rate": R,
//   "burst": B} throttles DescribeStacks past a token bucket refilled at R a
//   second of wall time. Two unsigned requests drive a fleet: GET /__fleet/start
//   starts its clock and clears the counters, GET /__fleet/stats answers what was
//   seen (requests, throttled, when the last throttling came, from each stack's
//   readiness to the first answer saying so, and the longest gap between two
//   answered polls of one stack: throttled attempts between them do not count).
//   Fleet times run on a monotonic clock from the fleet's start.
// A resource the script does not name does not exist: ValidationError,
// InvalidInstanceID.NotFound or ResourceNotFoundException, as the services
// say it. LOG gets "SERVICE OPERATION RESOURCE STATE|error" per request.
'use strict'
const http = require('http')
const fs = require('fs')
const crypto = require('crypto')
const { checkSignature } = require('./sigv4')
const [scriptPath, logPath] = process.argv.slice(2)
const script = JSON.parse(fs.readFileSync(scriptPath, 'utf8'))
const seen = {}

function log (line) { fs.appendFileSync(logPath, line + '\n') }
function requestId () { return crypto.randomUUID() }

// The state of a resource for this request (each request moves it one step), or null when it does not exist.
function step (kind, name) {
  const states = (script[kind] || {})[name]
  if (!states) return null
  const key = kind + '/' + name
  const n = seen[key] || 0
  seen[key] = n + 1
  return states[Math.min(n, states.length - 1)]
}

function xml (res, status, body) {
  res.writeHead(status, { 'Content-Type': 'text/xml;charset=UTF-8', 'x-amzn-RequestId': requestId() })
  res.end('<?xml version="1.0" encoding="UTF-8"?>\n' + body)
}

let describeStacks = 0
const hung = []
const perSecond = {}

// The wall-time fleet and token bucket (bench/ only: tests run on a fake clock).
// Monotonic milliseconds: a step of the wall clock during a run would skew readiness, gaps and refills.
const clock = () => performance.now()
const fleet = script.fleet ? { ...script.fleet, start: clock(), stacks: new Map() } : null
const bucket = script.bucket ? { ...script.bucket, tokens: script.bucket.burst, at: clock() } : null
const counts = { requests: 0, throttled: 0, lastThrottled: null }

function fleetReset () {
  fleet.start = clock()
  fleet.stacks = new Map()
  counts.requests = 0
  counts.throttled = 0
  counts.lastThrottled = null
  if (bucket) Object.assign(bucket, { tokens: bucket.burst, at: fleet.start })
}

function bucketTake (now) {
  bucket.tokens = Math.min(bucket.burst, bucket.tokens + (now - bucket.at) * bucket.rate / 1000)
  bucket.at = now
  if (bucket.tokens < 1) return false
  bucket.tokens -= 1
  return true
}

// The fleet stack's state now (recording its poll), or undefined when NAME is not one of the fleet.
function fleetState (name, now) {
  if (!name.startsWith(fleet.prefix)) return undefined
  const i = Number(name.slice(fleet.prefix.length))
  if (!Number.isInteger(i) || i < 1 || i > fleet.count || String(i) !== name.slice(fleet.prefix.length)) return undefined
  const readyAt = fleet.start + fleet.spread_ms * i / fleet.count
  let st = fleet.stacks.get(i)
  if (!st) fleet.stacks.set(i, (st = { polls: 0, last: null, gap: 0, seen: null }))
  st.polls++
  if (st.last !== null) st.gap = Math.max(st.gap, now - st.last)
  st.last = now
  if (now < readyAt) return 'CREATE_IN_PROGRESS'
  if (st.seen === null) st.seen = now - readyAt
  return 'CREATE_COMPLETE'
}

function fleetStats () {
  const lat = []
  let polls = 0
  let gap = 0
  for (const st of fleet.stacks.values()) {
    polls += st.polls
    gap = Math.max(gap, st.gap)
    if (st.seen !== null) lat.push(st.seen)
  }
  lat.sort((a, b) => a - b)
  const q = (f) => lat.length ? lat[Math.max(0, Math.ceil(f * lat.length) - 1)] : null // nearest rank
  return {
    count: fleet.count,
    spread_ms: fleet.spread_ms,
    requests: counts.requests,
    throttled: counts.throttled,
    last_throttled_ms: counts.lastThrottled === null ? null : counts.lastThrottled - fleet.start,
    polled: fleet.stacks.size,
    answered: polls,
    seen_ready: lat.length,
    latency_ms: { p50: q(0.5), p99: q(0.99), max: lat.length ? lat[lat.length - 1] : null },
    max_answered_gap_ms: gap
  }
}

function cloudformation (form, res, date) {
  const name = form.get('StackName') || ''
  if ((script.hang || []).includes(name)) {
    log('cloudformation ' + form.get('Action') + ' ' + name + ' hang')
    hung.push(res)
    return
  }
  describeStacks++
  perSecond[date] = (perSecond[date] || 0) + 1
  const now = clock()
  counts.requests++
  if ((script.throttle_every && describeStacks % script.throttle_every === 0) ||
      (script.throttle_rate && perSecond[date] > script.throttle_rate) ||
      (bucket && !bucketTake(now))) {
    counts.throttled++
    counts.lastThrottled = now
    log('cloudformation ' + form.get('Action') + ' ' + name + ' throttled')
    return xml(res, 400, '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">\n' +
      '  <Error>\n    <Type>Sender</Type>\n    <Code>Throttling</Code>\n    <Message>Rate exceeded</Message>\n' +
      `  </Error>\n  <RequestId>${requestId()}</RequestId>\n</ErrorResponse>\n`)
  }
  const fleetAnswer = fleet ? fleetState(name, now) : undefined
  const state = fleetAnswer || step('stacks', name)
  log('cloudformation ' + form.get('Action') + ' ' + name + ' ' + (state || 'error'))
  if (!state) {
    return xml(res, 400, '<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">\n' +
      '  <Error>\n    <Type>Sender</Type>\n    <Code>ValidationError</Code>\n' +
      `    <Message>Stack with id ${name} does not exist</Message>\n  </Error>\n` +
      `  <RequestId>${requestId()}</RequestId>\n</ErrorResponse>\n`)
  }
  const reason = state.startsWith('ROLLBACK') ? '\n        <StackStatusReason>The following resource(s) failed to create: [Queue]. Rollback requested by user.</StackStatusReason>' : ''
  xml(res, 200, '<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">\n' +
    '  <DescribeStacksResult>\n    <Stacks>\n      <member>\n' +
    `        <StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/${name}/5b9ea6c0-8f4a-11ef-9b1a-0e7d8c5f1a2b</StackId>\n` +
    `        <StackName>${name}</StackName>\n` +
    '        <CreationTime>2026-11-25T09:30:12.512Z</CreationTime>\n' +
    `        <StackStatus>${state}</StackStatus>${reason}\n` +
    '        <DisableRollback>false</DisableRollback>\n        <NotificationARNs/>\n' +
    '        <Parameters>\n          <member>\n            <ParameterKey>Env</ParameterKey>\n' +
    '            <ParameterValue>test</ParameterValue>\n          </member>\n        </Parameters>\n' +
    '        <Tags/>\n        <EnableTerminationProtection>false</EnableTerminationProtection>\n' +
    '        <DriftInformation>\n          <StackDriftStatus>NOT_CHECKED</StackDriftStatus>\n        </DriftInformation>\n' +
    '      </member>\n    </Stacks>\n  </DescribeStacksResult>\n' +
    `  <ResponseMetadata>\n    <RequestId>${requestId()}</RequestId>\n  </ResponseMetadata>\n` +
    '</DescribeStacksResponse>\n')
}

function ec2 (form, res) {
  const ids = []
  for (const [k, v] of form) if (/^InstanceId\.\d+$/.test(k)) ids.push(v)
  const states = ids.map((id) => [id, step('instances', id)])
  log('ec2 ' + form.get('Action') + ' ' + ids.join(',') + ' ' + states.map(([, s]) => s || 'error').join(','))
  const missing = states.filter(([, s]) => !s).map(([id]) => id)
  if (missing.length) {
    return xml(res, 400, '<Response><Errors><Error><Code>InvalidInstanceID.NotFound</Code>' +
      `<Message>The instance ID '${missing.join(', ')}' does not exist</Message></Error></Errors>` +
      `<RequestID>${requestId()}</RequestID></Response>`)
  }
  const codes = { pending: 0, running: 16, 'shutting-down': 32, terminated: 48, stopping: 64, stopped: 80 }
  const items = states.map(([id, state]) => '                <item>\n' +
    `                    <instanceId>${id}</instanceId>\n` +
    '                    <imageId>ami-0abcdef1234567890</imageId>\n' +
    `                    <instanceState>\n                        <code>${codes[state]}</code>\n` +
    `                        <name>${state}</name>\n                    </instanceState>\n` +
    '                    <privateDnsName>ip-10-0-0-12.ec2.internal</privateDnsName>\n' +
    '                    <dnsName/>\n                    <reason/>\n' +
    '                    <amiLaunchIndex>0</amiLaunchIndex>\n                    <productCodes/>\n' +
    '                    <instanceType>t3.micro</instanceType>\n' +
    '                    <launchTime>2026-11-25T09:30:12.000Z</launchTime>\n' +
    '                    <placement>\n                        <availabilityZone>us-east-1a</availabilityZone>\n' +
    '                        <groupName/>\n                        <tenancy>default</tenancy>\n                    </placement>\n' +
    '                    <monitoring>\n                        <state>disabled</state>\n                    </monitoring>\n' +
    '                    <subnetId>subnet-0123456789abcdef0</subnetId>\n' +
    '                    <privateIpAddress>10.0.0.12</privateIpAddress>\n' +
    '                    <groupSet>\n                        <item>\n                            <groupId>sg-0123456789abcdef0</groupId>\n' +
    '                            <groupName>default</groupName>\n                        </item>\n                    </groupSet>\n' +
    '                    <architecture>x86_64</architecture>\n' +
    '                    <rootDeviceType>ebs</rootDeviceType>\n' +
    '                    <blockDeviceMapping/>\n' +
    '                    <ebsOptimized>false</ebsOptimized>\n' +
    '                    <tagSet>\n                        <item>\n                            <key>Name</key>\n' +
    '                            <value>anvil-e2e</value>\n                        </item>\n                    </tagSet>\n' +
    '                </item>\n').join('')
  xml(res, 200, '<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">\n' +
    `    <requestId>${requestId()}</requestId>\n    <reservationSet>\n        <item>\n` +
    '            <reservationId>r-0123456789abcdef0</reservationId>\n            <ownerId>123456789012</ownerId>\n' +
    '            <groupSet/>\n            <instancesSet>\n' + items + '            </instancesSet>\n' +
    '        </item>\n    </reservationSet>\n</DescribeInstancesResponse>\n')
}

function lambda (req, res) {
  const m = /^\/2015-03-31\/functions\/([^/?]+)(\/configuration)?(\?.*)?$/.exec(req.url)
  const name = m ? decodeURIComponent(m[1]) : ''
  const state = m ? step('functions', name) : null
  const op = m && m[2] ? 'GetFunctionConfiguration' : 'GetFunction'
  log('lambda ' + op + ' ' + name + ' ' + (state || 'error'))
  if (!state) {
    res.writeHead(404, { 'Content-Type': 'application/json', 'x-amzn-RequestId': requestId(), 'X-Amzn-ErrorType': 'ResourceNotFoundException' })
    return res.end(JSON.stringify({ Type: 'User', message: `Function not found: arn:aws:lambda:us-east-1:123456789012:function:${name}` }))
  }
  const config = {
    FunctionName: name,
    FunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${name}`,
    Runtime: 'python3.12',
    Role: 'arn:aws:iam::123456789012:role/lambda-role',
    Handler: 'app.handler',
    CodeSize: 1024,
    Timeout: 3,
    MemorySize: 128,
    LastModified: '2026-11-25T09:30:12.000+0000',
    Version: '$LATEST',
    State: state,
    StateReason: state === 'Failed' ? 'The function could not be created: InvalidImage' : undefined,
    StateReasonCode: state === 'Pending' ? 'Creating' : state === 'Failed' ? 'InvalidImage' : undefined,
    LastUpdateStatus: 'Successful',
    PackageType: 'Zip',
    Architectures: ['x86_64']
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'x-amzn-RequestId': requestId() })
  res.end(JSON.stringify(op === 'GetFunction'
    ? { Configuration: config, Code: { RepositoryType: 'S3', Location: 'https://awslambda-us-east-1-tasks.s3.us-east-1.amazonaws.com/snapshots/x' } }
    : config))
}

const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const body = Buffer.concat(chunks)
    if (fleet && req.method === 'GET' && req.url.startsWith('/__fleet/')) {
      if (req.url === '/__fleet/start') fleetReset()
      res.writeHead(200, { 'Content-Type': 'application/json' })
      return res.end(JSON.stringify(req.url === '/__fleet/stats' ? fleetStats() : { started: fleet.start }) + '\n')
    }
    const bad = checkSignature(req, body)
    if (bad) {
      log('bad-signature ' + req.method + ' ' + req.url)
      res.writeHead(403, { 'Content-Type': 'text/xml' })
      return res.end('<ErrorResponse><Error><Code>SignatureDoesNotMatch</Code><Message>' +
        bad.replace(/[<&>]/g, ' ') + '</Message></Error></ErrorResponse>')
    }
    if (req.method === 'GET' && req.url.startsWith('/2015-03-31/functions/')) return lambda(req, res)
    const form = new URLSearchParams(body.toString('utf8'))
    const action = form.get('Action')
    if (action === 'DescribeStacks' && form.get('Version') === '2010-05-15') {
      return cloudformation(form, res, req.headers['x-amz-date'] || '')
    }
    if (action === 'DescribeInstances' && form.get('Version') === '2016-11-15') return ec2(form, res)
    log('unknown ' + req.method + ' ' + req.url + ' ' + (action || ''))
    res.writeHead(400, { 'Content-Type': 'text/xml' })
    res.end('<ErrorResponse><Error><Code>InvalidAction</Code><Message>not faked</Message></Error></ErrorResponse>')
  })
})
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port))
const stop = () => { server.close(); process.exit(0) }
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
