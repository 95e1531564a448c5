// A fault-injecting HTTP proxy for the end-to-end tests, on 127.0.0.1 and a
// free port, in front of an emulator. Usage: node faults.js UPSTREAM_PORT SCRIPT LOG
// SCRIPT holds one fault per line, "OPERATION FAULT" (OPERATION "*" = any),
// each used once, in order, by the first request it matches; requests no
// line matches pass through. A changed SCRIPT starts afresh ('#' lines are
// comments, e.g. a generation number). FAULT is one of:
//   500 | 503 | throttle         an error answer (throttle: 400 ThrottlingException)
//   503-retry-after:MS            503 with x-amz-retry-after: MS
//   garbage                       200 with a body that is not JSON
//   big:BYTES                     200 with a JSON body of about BYTES bytes
//   skew:SECONDS                  400 RequestTimeTooSkewed, its Date header SECONDS from now
// Every request also logs "# date OPERATION X-Amz-Date" (a comment line: count() skips it).
//   slow:MS                       pass through after MS milliseconds
//   error:STATUS:CODE[:MS]        STATUS with __type CODE (after MS milliseconds)
//   drop                          close the connection without answering
//   hostile                       500 with a body that is not JSON: 0xFF bytes, ESC sequences,
//                                 CR/LF, a NUL, and a 3-byte character cut at byte 200
//   hostile-json                  400 JSON error whose __type and message hold ESC, CR/LF, C1, bidi
//   redirect                      307 with a Location and no body
// LOG gets "OPERATION FAULT|pass STATUS" per request. Prints "PORT <n>";
// stops when its standard input closes or on SIGTERM.
//
// Every request's SigV4 signature is checked against what arrived (the Host
// header, the path and query as sent, the headers, the body), with the secret
// AWS_SECRET_ACCESS_KEY: a request signed over anything else is answered 403
// InvalidSignatureException and logged "OPERATION bad-signature 403" with the
// canonical request it should have signed. "# host OPERATION HOST PATH" logs
// what arrived. FAULTS_PORT sets the port to listen on (default: any free one).
// FAULTS_TLS_CERT and FAULTS_TLS_KEY (PEM files) make it answer HTTPS instead.
'use strict'
const http = require('http')
const https = require('https')
const fs = require('fs')
const [upstreamPort, scriptPath, logPath] = process.argv.slice(2)

const { checkSignature } = require('./sigv4')

let used = new Set()
let lastScript = ''

function nextFault (op) {
  const text = fs.existsSync(scriptPath) ? fs.readFileSync(scriptPath, 'utf8') : ''
  if (text !== lastScript) { used = new Set(); lastScript = text } // a new script starts afresh
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('#')) continue
    const [name, fault] = lines[i].trim().split(/\s+/)
    if (!fault || used.has(i)) continue
    if (name === '*' || name === op) { used.add(i); return fault }
  }
  return null
}

function log (line) { fs.appendFileSync(logPath, line + '\n') }

function pass (req, body, res, op, label) {
  const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers }, (r) => {
    const chunks = []
    r.on('data', (c) => chunks.push(c))
    r.on('end', () => {
      if (res.destroyed || req.socket.destroyed) return // the client gave up first: nothing to log
      log(op + ' ' + label + ' ' + r.statusCode)
      res.writeHead(r.statusCode, r.headers)
      res.end(Buffer.concat(chunks))
    })
  })
  up.on('error', () => { log(op + ' ' + label + ' upstream-down'); req.socket.destroy() })
  up.end(body)
}

const tls = process.env.FAULTS_TLS_CERT
  ? { cert: fs.readFileSync(process.env.FAULTS_TLS_CERT), key: fs.readFileSync(process.env.FAULTS_TLS_KEY) }
  : null
const server = (tls ? (handler) => https.createServer(tls, handler) : http.createServer)((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const body = Buffer.concat(chunks)
    const target = String(req.headers['x-amz-target'] || '')
    const op = target.split('.').pop()
    log('# date ' + op + ' ' + (req.headers['x-amz-date'] || '-'))
    log('# host ' + op + ' ' + (req.headers.host || '-') + ' ' + req.url)
    const bad = checkSignature(req, body)
    if (bad) {
      log(op + ' bad-signature 403')
      log(bad.split('\n').map((l) => '# ' + l).join('\n'))
      res.writeHead(403, { 'Content-Type': 'application/x-amz-json-1.0' })
      return res.end(JSON.stringify({ __type: 'InvalidSignatureException', message: bad }))
    }
    const fault = nextFault(op)
    const error = (status, type, extra) => {
      if (res.destroyed || req.socket.destroyed) return // the client gave up first: nothing to log
      log(op + ' ' + fault + ' ' + status)
      res.writeHead(status, Object.assign({ 'Content-Type': 'application/x-amz-json-1.0' }, extra || {}))
      res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#' + type, message: 'injected ' + fault }))
    }
    if (!fault) return pass(req, body, res, op, 'pass')
    if (fault === '500') return error(500, 'InternalServerError')
    if (fault === '503') return error(503, 'ServiceUnavailable')
    if (fault === 'throttle') return error(400, 'ThrottlingException')
    if (fault.startsWith('503-retry-after:')) return error(503, 'ServiceUnavailable', { 'x-amz-retry-after': fault.split(':')[1] })
    if (fault.startsWith('error:')) {
      const [, status, code, ms] = fault.split(':')
      return setTimeout(() => error(Number(status), code), Number(ms || 0))
    }
    if (fault.startsWith('skew:')) {
      const date = new Date(Date.now() + 1000 * Number(fault.split(':')[1])).toUTCString()
      return error(400, 'RequestTimeTooSkewed', { Date: date })
    }
    if (fault.startsWith('big:')) {
      log(op + ' ' + fault + ' 200')
      res.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' })
      return res.end(JSON.stringify({ Padding: 'x'.repeat(Number(fault.split(':')[1])) }))
    }
    if (fault === 'garbage') { log(op + ' garbage 200'); res.writeHead(200); return res.end('<html>not json') }
    if (fault === 'hostile') {
      log(op + ' hostile 500')
      res.writeHead(500, { 'Content-Type': 'text/html' })
      const head = Buffer.from('<b>\xff\xfe bad bytes\x1b[2J\x1b]0;pwned\x07 \r\nInjected: yes \0 after a NUL ', 'latin1')
      const pad = Buffer.alloc(200 - head.length - 1, 'x')
      return res.end(Buffer.concat([head, pad, Buffer.from('\u20ac\u20ac', 'utf8')])) // byte 200 is inside the first euro
    }
    if (fault === 'hostile-json') {
      log(op + ' hostile-json 400')
      res.writeHead(400, { 'Content-Type': 'application/x-amz-json-1.0' })
      return res.end(JSON.stringify({ __type: 'Bad\u001b[2JCode', message: 'line one\r\nInjected: yes \u009b31m \u202eevil' }))
    }
    if (fault === 'redirect') {
      log(op + ' redirect 307')
      res.writeHead(307, { Location: 'https://dynamodb.eu-west-1.amazonaws.com/' })
      return res.end()
    }
    if (fault.startsWith('slow:')) log('# arrived ' + op) // for tests that act while it is in flight
    if (fault.startsWith('slow:')) return setTimeout(() => pass(req, body, res, op, fault), Number(fault.split(':')[1]))
    if (fault === 'drop') { log(op + ' drop -'); return req.socket.destroy() }
    return pass(req, body, res, op, 'pass')
  })
})
server.listen(Number(process.env.FAULTS_PORT || 0), '127.0.0.1', () => console.log('PORT ' + server.address().port))
const stop = () => { server.close(); process.exit(0) }
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
