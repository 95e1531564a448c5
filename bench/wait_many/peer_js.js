// The JS SDK v3 peer of bench/wait_many: every input line's stack waited on at
// once in this one process (Promise.all over the SDK's own
// waitUntilStackCreateComplete, one client, the SDK's defaults), the way a
// node user would wait on a fleet. Prints {"success": n, "other": {...}}.
// Usage: NODE_PATH=NODE_MODULES node peer_js.js INPUTS.jsonl ENDPOINT MAX_WAIT_S
'use strict'
const fs = require('fs')
const { CloudFormationClient, waitUntilStackCreateComplete } = require('@aws-sdk/client-cloudformation')
const [inputsPath, endpoint, maxWait] = process.argv.slice(2)
const inputs = fs.readFileSync(inputsPath, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
const client = new CloudFormationClient({ endpoint, region: process.env.AWS_REGION || 'us-east-1' })
const outcome = { success: 0, other: {} }
Promise.all(inputs.map((input) =>
  waitUntilStackCreateComplete({ client, maxWaitTime: Number(maxWait) }, input).then(
    (r) => { if (r.state === 'SUCCESS') outcome.success++; else outcome.other[r.state] = (outcome.other[r.state] || 0) + 1 },
    (e) => { const k = e.name || 'error'; outcome.other[k] = (outcome.other[k] || 0) + 1 })))
  .then(() => {
    console.log(JSON.stringify(outcome))
    process.exit(outcome.success === inputs.length ? 0 : 1)
  })
