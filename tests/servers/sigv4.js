// SigV4 as a server checks it, from the request as it arrived: the test
// servers (faults.js, fake_aws.js) answer a request signed over anything
// other than what they received with 403. The secret is the environment's
// AWS_SECRET_ACCESS_KEY, or what checkSignature's optional third argument,
// secretFor(accessKeyId), answers (fake_creds.js: several keys, some it issued
// itself). S3 signs its path as sent, URI-encoded once; every other service
// the path with "." and ".." segments and empty ones removed, encoded twice
// (the path as sent is encoded again).
'use strict'
const crypto = require('crypto')
const secret = () => process.env.AWS_SECRET_ACCESS_KEY || ''

const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex')
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest()
const unreserved = /[A-Za-z0-9\-_.~]/
function encode (text, keepSlash) {
  let out = ''
  for (const byte of Buffer.from(text, 'latin1')) {
    const c = String.fromCharCode(byte)
    out += unreserved.test(c) || (keepSlash && c === '/') ? c : '%' + byte.toString(16).toUpperCase().padStart(2, '0')
  }
  return out
}
function decode (text) {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)))
}
// "." and ".." segments and empty ones removed, a trailing slash kept (every service but S3).
function normalise (path) {
  const out = []
  const segments = path.split('/')
  let trailing = path.endsWith('/')
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1
    if (seg === '' || seg === '.') { trailing = trailing || last; return }
    if (seg === '..') { out.pop(); trailing = trailing || last; return }
    out.push(seg)
  })
  return '/' + out.join('/') + (trailing && out.length ? '/' : '')
}
// The Authorization header's parts, or null when it is not a SigV4 one.
function parseAuthorization (req) {
  const auth = req.headers.authorization || ''
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth)
  if (!m) return null
  const [, accessKeyId, date, region, service, signedHeaders, signature] = m
  return { accessKeyId, date, region, service, signedHeaders, signature }
}
// null when the request is signed with the secret secretFor(accessKeyId) gives
// (default: the environment's), else why not.
function checkSignature (req, body, secretFor) {
  const parts = parseAuthorization(req)
  if (!parts) return 'no SigV4 Authorization header'
  const { accessKeyId, date, region, service, signedHeaders: signed, signature } = parts
  const keySecret = secretFor ? secretFor(accessKeyId) : secret()
  if (typeof keySecret !== 'string') return 'unknown access key id ' + accessKeyId
  const q = req.url.indexOf('?')
  const rawPath = q < 0 ? req.url : req.url.slice(0, q)
  const rawQuery = q < 0 ? '' : req.url.slice(q + 1)
  const query = rawQuery.split('&').filter((p) => p).map((p) => {
    const eq = p.indexOf('=')
    const k = eq < 0 ? p : p.slice(0, eq)
    const v = eq < 0 ? '' : p.slice(eq + 1)
    return [encode(decode(k), false), encode(decode(v), false)]
  }).sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)
  const values = {}
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase()
    ;(values[name] = values[name] || []).push(req.rawHeaders[i + 1].trim().replace(/\s+/g, ' '))
  }
  const names = signed.split(';')
  if (!names.includes('host')) return 'the Host header is not signed'
  const missing = names.filter((n) => !values[n])
  if (missing.length) return 'signed headers that did not arrive: ' + missing.join(', ')
  // S3 signs its path as sent, encoded once; every other service normalised, encoded twice.
  const path = service === 's3' ? encode(decode(rawPath), true) : encode(normalise(rawPath), true)
  const canonical = [req.method, path, query.map((kv) => kv.join('=')).join('&'),
    names.map((n) => n + ':' + values[n].join(',') + '\n').join(''), signed, sha256(body)].join('\n')
  const scope = [date, region, service, 'aws4_request'].join('/')
  const toSign = ['AWS4-HMAC-SHA256', req.headers['x-amz-date'] || '', scope, sha256(canonical)].join('\n')
  let key = hmac('AWS4' + keySecret, date)
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part)
  return hmac(key, toSign).toString('hex') === signature ? null : 'the signature does not match; canonical request:\n' + canonical
}

module.exports = { checkSignature, parseAuthorization }
