// A scripted fake of every endpoint anvil's credential provider chain talks
// to, for the end-to-end tests: EC2 instance metadata (IMDSv2 and v1), the
// ECS/EKS container endpoint, STS (awsQuery: AssumeRole,
// AssumeRoleWithWebIdentity, GetCallerIdentity), the SSO portal's
// GetRoleCredentials and SSO OIDC's CreateToken (restJson1), answering with
// the services' own shapes (XML namespaces and wrappers, error documents,
// x-amzn-ErrorType headers, IMDS's HTML error pages). It listens on 127.0.0.1
// and a free port, prints "PORT <n>", and stops when its standard input
// closes or on SIGTERM/SIGINT.
//
// Usage: node fake_creds.js SCRIPT LOG
//
// LOG gets one line per request, "SERVICE WHAT DETAIL OUTCOME" (no field
// holds a space; an empty one is "-"):
//   imds PUT /latest/api/token 200      imds GET role 200 (the role listing)
//   imds GET credentials/dev 200        imds GET region 200
//   imds GETv1 role 200                 (a GET without a token header: IMDSv1)
//   ecs GET /v2/credentials/abc 401     sts AssumeRole arn:aws:iam::123456789012:role/dev 200
//   sts AssumeRoleWithWebIdentity ARN 200    sts GetCallerIdentity ACCESS_KEY_ID 200
//   sso GetRoleCredentials 123456789012/Admin 200    oidc CreateToken CLIENT_ID 200
//   unknown POST /nope 404
// OUTCOME is the HTTP status, or "hang" (an IMDS token PUT left unanswered).
// A request to a section the script lacks or over the body cap logs "SERVICE
// METHOD PATH 404|413"; while SCRIPT is not valid JSON, "fake METHOD SCRIPT 500"
// (stderr says where it broke, never what it holds).
// No secret (secret key, session token, IMDS token, authorization or bearer
// token, web identity token, client secret, refresh token) is ever written to
// LOG or stdout; access key ids and client ids are. A request whose signature
// does not match says why on stderr, the session token in it redacted.
//
// SCRIPT is JSON, re-read on every request (a test may change it between
// runs; a changed script's lists start again from their first entry). What
// the fake handed out (IMDS tokens, keys, OIDC access tokens) stays valid as
// long as the process runs. Every section is optional; a request to a section
// the script lacks is answered 404.
//
// Credentials: {"AccessKeyId", "SecretAccessKey", "Token" (or
// "SessionToken"), "Expiration"}, the SSO section's in its own lower-case
// names. A field left out is made up (a fresh ASIA... key, a random secret and
// token; an Expiration an hour away, six hours for IMDS); a field that is null
// is left out of the answer. Expiration is ISO-8601 text, given as is, or
// "+SECONDS"/"-SECONDS" from the moment of the answer (SSO: epoch
// milliseconds, or the same "+SECONDS"). Where a script gives a list, each
// request for that resource (IMDS role, ECS path, STS role, SSO account/role,
// OIDC refresh token) takes the next entry and the last one repeats, so a test
// sees a refresh get the next set; an entry that is a string is sent verbatim
// as the 200 answer's body (for malformed-answer tests). Every set handed out
// (by any section) is a key STS accepts afterwards, with its session token,
// until its Expiration (then 403 ExpiredToken).
//
//   "imds": {"role": "dev", "credentials": [CREDS, ...], "region": "eu-west-1",
//            "token_required": true, "token_status": null}
//     PUT /latest/api/token needs x-aws-ec2-metadata-token-ttl-seconds
//     (1..21600, else 400), refuses a request with X-Forwarded-For (403), and
//     answers a random token for that TTL (the header echoed); "token_status"
//     answers it with that status instead (403, 404, 405: the SDKs' signal to
//     fall back to IMDSv1; 400; 500), or "hang" never answers it. A GET with
//     an unknown or expired x-aws-ec2-metadata-token is 401; one without the
//     header is 401 unless "token_required" is false. Paths:
//     /latest/meta-data/iam/security-credentials/ (the role name),
//     .../security-credentials/ROLE (the credentials JSON, Code "Success" or
//     the entry's "Code"; another role 404), /latest/meta-data/placement/region,
//     /latest/dynamic/instance-identity/document. Errors are IMDS's HTML pages.
//   "ecs": {"path": "/v2/credentials/abc", "authorization": "token",
//           "credentials": [CREDS, ...], "role_arn": "arn:...", "status": 500}
//     GET PATH (the path the test points AWS_CONTAINER_CREDENTIALS_FULL_URI
//     at); with "authorization", an Authorization header other than exactly it
//     is 401; "status" answers with that status instead; errors are
//     {"code","message"}. Answers {"AccessKeyId","SecretAccessKey","Token",
//     "Expiration","RoleArn","AccountId"}.
//   "sts": {"keys": {"AKIDSOURCE": "source-secret",
//                    "AKIDOTHER": {"secret": "...", "token": "...", "arn": "..."}},
//           "roles": {"arn:aws:iam::123456789012:role/dev":
//                       {"credentials": [CREDS, ...], "external_id": "x", "source_key": "AKIDSOURCE"}},
//           "web_identity": {"<token>": "arn:aws:iam::123456789012:role/web"},
//           "region": "us-east-1", "error": {"code", "message", "status"}}
//     POST / with a form body, Version=2011-06-15. AssumeRole and
//     GetCallerIdentity must be SigV4-signed (service "sts"; with "region",
//     scoped to it) with a key from "keys" or one the fake issued, carrying its
//     session token (x-amz-security-token) when it has one and none otherwise:
//     else 403 MissingAuthenticationToken, InvalidClientTokenId,
//     SignatureDoesNotMatch or ExpiredToken. RoleSessionName 2-64 of
//     [\w+=,.@-], DurationSeconds 900-43200, ExternalId, SerialNumber,
//     TokenCode are checked (400 ValidationError). An unknown role, the wrong
//     ExternalId or a signer other than "source_key" is 403 AccessDenied ("User:
//     CALLER is not authorized to perform: sts:AssumeRole on resource: ARN").
//     AssumeRoleWithWebIdentity must be unsigned (else 400
//     InvalidParameterValue); a token not in "web_identity" is 400
//     InvalidIdentityToken, one mapped to another role 403 AccessDenied; the
//     role's credentials come from "roles" (made up when it is not there); the
//     subject, audience and provider from a JWT token's sub/aud/iss, or from
//     {"role","subject","audience","provider"} in place of the role ARN.
//     GetCallerIdentity answers the signer's Account, Arn and UserId. "error"
//     answers every request with that error (default status 400).
//   "sso": {"access_tokens": ["tok1"], "roles": {"123456789012/Admin":
//             {"credentials": [{"accessKeyId", "secretAccessKey", "sessionToken",
//                               "expiration": MILLISECONDS}, ...]}}}
//     GET /federation/credentials?role_name=R&account_id=A, header
//     x-amz-sso_bearer_token: a token in "access_tokens" or one CreateToken
//     handed out, else 401 UnauthorizedException; unknown account/role 403
//     ForbiddenException; signed (an Authorization header) or missing
//     parameters 400 InvalidRequestException. Answers {"roleCredentials": {...}}.
//   "oidc": {"client_id": "...", "client_secret": "...",
//            "refresh_tokens": {"<refresh token>": {"accessToken", "expiresIn",
//                                                    "refreshToken"}}}
//     POST /token, JSON {"clientId","clientSecret","grantType":"refresh_token",
//     "refreshToken"}, unsigned (else 400 InvalidRequestException). The wrong
//     client is 401 InvalidClientException (the model's status), another grant
//     type 400 UnsupportedGrantTypeException, an unknown refresh token 400
//     InvalidGrantException, each {"error","error_description"}. Answers
//     {"accessToken","tokenType":"Bearer","expiresIn","refreshToken"} (left
//     out: a made-up access token, 3600, the refresh token given).
//
// Routing: the ECS path first, then /latest/ (IMDS), /federation/ (SSO),
// /token (OIDC), POST / (STS); anything else is 404 "unknown". Request bodies
// are capped at 1 MB (413).
'use strict'
const http = require('http')
const fs = require('fs')
const crypto = require('crypto')
const { checkSignature, parseAuthorization } = require('./sigv4')
const [scriptPath, logPath] = process.argv.slice(2)
if (!scriptPath || !logPath) {
  console.error('usage: node fake_creds.js SCRIPT LOG')
  process.exit(64)
}

const MAX_BODY = 1024 * 1024
const ACCOUNT = '123456789012'
const IMDS_TTL_MAX = 21600
const STS_NS = 'https://sts.amazonaws.com/doc/2011-06-15/'
const INSTANCE_ID = 'i-0123456789abcdef0'

let seen = {} // resource -> how many requests took from its list (reset when SCRIPT changes)
let lastScript = null
const imdsTokens = new Map() // IMDS token -> expiry (ms)
const issued = new Map() // access key id -> {secret, token, expiresMs, arn, userId}
const oidcIssued = new Set() // access tokens CreateToken handed out

// ---- helpers -------------------------------------------------------------

function field (value) {
  const text = String(value == null ? '' : value).replace(/\s/g, '_')
  return text || '-'
}
let logged = false // whether the request being handled has its line
function log (service, what, detail, outcome) {
  logged = true
  fs.appendFileSync(logPath, [service, what, detail, outcome].map(field).join(' ') + '\n')
}
const requestId = () => crypto.randomUUID()
// The time of the request being answered: a signed request's X-Amz-Date (so a client on a fake
// clock gets credentials that expire on its clock), else the real time.
let requestTime = null
const now = () => requestTime == null ? Date.now() : requestTime
function amzDate (text) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text || '')
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : null
}
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
const xmlText = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' }[c]))
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
function randomUpper (n) {
  let out = ''
  for (const b of crypto.randomBytes(n)) out += UPPER[b % 32]
  return out
}
// A stable id from text, as IAM's unique ids look (AROA..., AIDA...).
function stableId (prefix, text) {
  let out = ''
  for (const b of crypto.createHash('sha256').update(text).digest().subarray(0, 17)) out += UPPER[b % 32]
  return prefix + out
}
const newKeyId = () => 'ASIA' + randomUpper(16)
const newSecret = () => crypto.randomBytes(30).toString('base64')
const newToken = () => 'IQoJb3JpZ2luX2VjE' + crypto.randomBytes(240).toString('base64')

// The next entry of a script list for RESOURCE (the last repeats); undefined when there is none.
function step (resource, list) {
  if (list == null) return undefined
  if (!Array.isArray(list)) list = [list]
  if (!list.length) return undefined
  const n = seen[resource] || 0
  seen[resource] = n + 1
  return list[Math.min(n, list.length - 1)]
}

// An expiration as the script gives it: {text, ms} (text null: leave it out).
function expiration (value, lifetimeS) {
  if (value === undefined) value = '+' + lifetimeS
  if (value === null) return { text: null, ms: null }
  if (typeof value === 'number') return { text: value, ms: value }
  const rel = /^([+-])(\d+)$/.exec(String(value))
  if (rel) {
    const ms = now() + (rel[1] === '-' ? -1 : 1) * Number(rel[2]) * 1000
    return { text: iso(ms), ms }
  }
  const ms = Date.parse(value)
  return { text: value, ms: Number.isNaN(ms) ? null : ms }
}

// A script credentials entry, either case of names: {id, secret, token, expiration}; null fields are left out.
function credentials (entry, lifetimeS) {
  entry = entry || {}
  const pick = (...names) => { for (const n of names) if (n in entry) return entry[n]; return undefined }
  const made = (value, make) => value === undefined ? make() : value
  return {
    id: made(pick('AccessKeyId', 'accessKeyId'), newKeyId),
    secret: made(pick('SecretAccessKey', 'secretAccessKey'), newSecret),
    token: made(pick('Token', 'SessionToken', 'sessionToken'), newToken),
    expiration: expiration(pick('Expiration', 'expiration'), lifetimeS)
  }
}

// Remember a set handed out: STS accepts it afterwards, as the identity ARN/USERID.
function issue (c, arn, userId) {
  if (typeof c.id !== 'string' || typeof c.secret !== 'string') return
  issued.set(c.id, { secret: c.secret, token: typeof c.token === 'string' ? c.token : null, expiresMs: c.expiration.ms, arn, userId })
}

// arn:PARTITION:iam::ACCOUNT:role/PATH/NAME -> its parts (defaults where it does not parse).
function roleParts (arn) {
  const m = /^arn:([^:]+):iam::(\d{12}):role\/(.+)$/.exec(arn || '')
  if (!m) return { partition: 'aws', account: ACCOUNT, name: String(arn || 'role').split('/').pop() || 'role' }
  return { partition: m[1], account: m[2], name: m[3].split('/').pop() }
}
function assumedRole (roleArn, session) {
  const r = roleParts(roleArn)
  return {
    arn: `arn:${r.partition}:sts::${r.account}:assumed-role/${r.name}/${session}`,
    userId: stableId('AROA', roleArn) + ':' + session
  }
}
const accountOf = (arn) => (String(arn).split(':')[4] || ACCOUNT)
// obj[key] when obj has it as its own (never Object.prototype's "constructor"...).
const own = (obj, key) => obj && typeof obj === 'object' && Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined
const status = (value) => Number.isInteger(Number(value)) && Number(value) >= 100 && Number(value) <= 599 ? Number(value) : 500
function decode (text) { try { return decodeURIComponent(text) } catch { return text } }

function send (res, status, headers, body) {
  res.writeHead(status, Object.assign({ 'Content-Length': Buffer.byteLength(body) }, headers))
  res.end(body)
}

// ---- IMDS ------------------------------------------------------------------

function imdsPage (res, status, headers) {
  const title = `${status} - ${http.STATUS_CODES[status] || 'Error'}`
  send(res, status, Object.assign({ 'Content-Type': 'text/html', Server: 'EC2ws' }, headers || {}),
    '<?xml version="1.0" encoding="iso-8859-1"?>\n' +
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"\n' +
    '\t"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n' +
    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">\n' +
    ` <head>\n  <title>${title}</title>\n </head>\n <body>\n  <h1>${title}</h1>\n </body>\n</html>\n`)
}
const imdsText = (res, body) => send(res, 200, { 'Content-Type': 'text/plain', Server: 'EC2ws' }, body)

function imdsToken (req, res, conf, pathname) {
  const done = (status) => log('imds', req.method, pathname, status)
  if (req.method !== 'PUT') { done(405); return imdsPage(res, 405) }
  if ('x-forwarded-for' in req.headers) { done(403); return imdsPage(res, 403) }
  if (conf.token_status === 'hang') return done('hang') // never answered: the client's timeout decides
  if (conf.token_status != null) { done(status(conf.token_status)); return imdsPage(res, status(conf.token_status)) }
  const ttlText = req.headers['x-aws-ec2-metadata-token-ttl-seconds']
  const ttl = /^\d{1,6}$/.test(ttlText || '') ? Number(ttlText) : 0
  if (ttl < 1 || ttl > IMDS_TTL_MAX) { done(400); return imdsPage(res, 400) }
  const token = 'AQAEA' + crypto.randomBytes(40).toString('base64url')
  imdsTokens.set(token, now() + ttl * 1000)
  done(200)
  send(res, 200, { 'Content-Type': 'text/plain', Server: 'EC2ws', 'x-aws-ec2-metadata-token-ttl-seconds': String(ttl) }, token)
}

function imds (req, res, conf, pathname) {
  if (pathname === '/latest/api/token') return imdsToken(req, res, conf, pathname)
  const prefix = '/latest/meta-data/iam/security-credentials'
  let detail = pathname
  let role = null
  if (pathname === prefix || pathname === prefix + '/') detail = 'role'
  else if (pathname.startsWith(prefix + '/')) { role = decode(pathname.slice(prefix.length + 1)); detail = 'credentials/' + role }
  else if (pathname === '/latest/meta-data/placement/region') detail = 'region'
  else if (pathname === '/latest/dynamic/instance-identity/document') detail = 'document'
  const token = req.headers['x-aws-ec2-metadata-token']
  const what = req.method === 'GET' && token === undefined ? 'GETv1' : req.method
  const done = (status) => log('imds', what, detail, status)
  if (req.method !== 'GET') { done(405); return imdsPage(res, 405) }
  if (token !== undefined) {
    const expires = imdsTokens.get(token)
    if (!expires || expires <= now()) { done(401); return imdsPage(res, 401) }
  } else if (conf.token_required !== false) { done(401); return imdsPage(res, 401) }

  if (detail === 'role') {
    if (!conf.role) { done(404); return imdsPage(res, 404) }
    done(200)
    return imdsText(res, conf.role)
  }
  if (role !== null) {
    if (!conf.role || role !== conf.role) { done(404); return imdsPage(res, 404) }
    const entry = step('imds ' + role, conf.credentials)
    if (typeof entry === 'string') { done(200); return imdsText(res, entry) }
    const c = credentials(entry, 6 * 3600)
    issue(c, `arn:aws:sts::${ACCOUNT}:assumed-role/${role}/${INSTANCE_ID}`, stableId('AROA', role) + ':' + INSTANCE_ID)
    const fields = [['Code', (entry && entry.Code) || 'Success'], ['LastUpdated', iso(now() - 60000)], ['Type', 'AWS-HMAC'],
      ['AccessKeyId', c.id], ['SecretAccessKey', c.secret], ['Token', c.token], ['Expiration', c.expiration.text]]
    const text = '{\n' + fields.filter(([, v]) => v !== null).map(([k, v]) => `  "${k}" : ${JSON.stringify(v)}`).join(',\n') + '\n}'
    done(200)
    return imdsText(res, text)
  }
  if (detail === 'region' || detail === 'document') {
    if (!conf.region) { done(404); return imdsPage(res, 404) }
    done(200)
    if (detail === 'region') return imdsText(res, conf.region)
    return imdsText(res, JSON.stringify({
      accountId: ACCOUNT, architecture: 'x86_64', availabilityZone: conf.region + 'a', imageId: 'ami-0abcdef1234567890',
      instanceId: INSTANCE_ID, instanceType: 't3.micro', pendingTime: '2026-11-25T09:30:12Z', privateIp: '10.0.0.12',
      region: conf.region, version: '2017-09-30'
    }, null, 2))
  }
  done(404)
  imdsPage(res, 404)
}

// ---- ECS / EKS container endpoint -------------------------------------------

const ECS_CODES = { 400: 'InvalidRequest', 401: 'AccessDenied', 403: 'AccessDenied', 404: 'NotFound', 405: 'MethodNotAllowed', 429: 'ThrottlingException' }
function ecsError (res, status, message) {
  send(res, status, { 'Content-Type': 'application/json' },
    JSON.stringify({ code: ECS_CODES[status] || 'InternalServerError', message: message || http.STATUS_CODES[status] || 'error' }))
}

function ecs (req, res, conf, pathname) {
  const done = (status) => log('ecs', req.method, pathname, status)
  if (req.method !== 'GET') { done(405); return ecsError(res, 405, 'Method not allowed') }
  if (conf.authorization != null && req.headers.authorization !== conf.authorization) {
    done(401)
    return ecsError(res, 401, 'Unable to validate the authorization token')
  }
  if (conf.status != null) { done(status(conf.status)); return ecsError(res, status(conf.status)) }
  const entry = step('ecs ' + conf.path, conf.credentials)
  if (typeof entry === 'string') { done(200); return send(res, 200, { 'Content-Type': 'application/json' }, entry) }
  const c = credentials(entry, 3600)
  const roleArn = conf.role_arn || `arn:aws:iam::${ACCOUNT}:role/ecs-task`
  const who = assumedRole(roleArn, crypto.createHash('md5').update(conf.path).digest('hex'))
  issue(c, who.arn, who.userId)
  const body = { AccessKeyId: c.id, SecretAccessKey: c.secret, Token: c.token, Expiration: c.expiration.text, RoleArn: roleArn, AccountId: accountOf(roleArn) }
  for (const k of Object.keys(body)) if (body[k] === null) delete body[k]
  done(200)
  send(res, 200, { 'Content-Type': 'application/json' }, JSON.stringify(body))
}

// ---- STS -----------------------------------------------------------------

function stsXml (res, status, body) {
  send(res, status, { 'Content-Type': 'text/xml', 'x-amzn-RequestId': requestId() },
    '<?xml version="1.0" encoding="UTF-8"?>\n' + body)
}
function stsError (res, status, code, message) {
  stsXml(res, status, `<ErrorResponse xmlns="${STS_NS}">\n  <Error>\n` +
    `    <Type>${status >= 500 ? 'Receiver' : 'Sender'}</Type>\n` +
    `    <Code>${xmlText(code)}</Code>\n    <Message>${xmlText(message)}</Message>\n  </Error>\n` +
    `  <RequestId>${requestId()}</RequestId>\n</ErrorResponse>\n`)
}
function credentialsXml (c, indent) {
  const lines = [['AccessKeyId', c.id], ['SecretAccessKey', c.secret], ['SessionToken', c.token], ['Expiration', c.expiration.text]]
    .filter(([, v]) => v !== null).map(([k, v]) => `${indent}  <${k}>${xmlText(v)}</${k}>\n`).join('')
  return `${indent}<Credentials>\n${lines}${indent}</Credentials>\n`
}
function assumedRoleUserXml (who, indent) {
  return `${indent}<AssumedRoleUser>\n${indent}  <AssumedRoleId>${xmlText(who.userId)}</AssumedRoleId>\n` +
    `${indent}  <Arn>${xmlText(who.arn)}</Arn>\n${indent}</AssumedRoleUser>\n`
}
const metadataXml = () => `  <ResponseMetadata>\n    <RequestId>${requestId()}</RequestId>\n  </ResponseMetadata>\n`

// The awsQuery validation messages, "N validation error(s) detected: ...".
function validate (form, rules) {
  const errors = []
  for (const [name, member, check] of rules) {
    const value = form.get(name)
    const problem = check(value)
    if (problem) errors.push(`Value ${value === null ? 'null' : `'${value}'`} at '${member}' failed to satisfy constraint: Member must ${problem}`)
  }
  if (!errors.length) return null
  return `${errors.length} validation error${errors.length > 1 ? 's' : ''} detected: ${errors.join('; ')}`
}
const required = (check) => (v) => v === null ? 'not be null' : check(v)
const optional = (check) => (v) => v === null ? null : check(v)
const length = (min, max) => (v) => v.length < min ? `have length greater than or equal to ${min}`
  : v.length > max ? `have length less than or equal to ${max}` : null
const pattern = (re, text) => (v) => re.test(v) ? null : `satisfy regular expression pattern: ${text}`
const all = (...checks) => (v) => { for (const c of checks) { const p = c(v); if (p) return p } return null }
const duration = (v) => !/^-?\d+$/.test(v) ? 'be an integer' : Number(v) < 900 ? 'have value greater than or equal to 900'
  : Number(v) > 43200 ? 'have value less than or equal to 43200' : null
const ROLE_ARN = required(length(20, 2048))
const SESSION_NAME = required(all(length(2, 64), pattern(/^[\w+=,.@-]*$/, '[\\w+=,.@-]*')))

// The signer of an AssumeRole/GetCallerIdentity, or an error [status, code, message].
function signer (req, body, conf) {
  const parts = parseAuthorization(req)
  if (!parts) {
    return req.headers.authorization
      ? [400, 'IncompleteSignature', 'Authorization header requires \'Credential\', \'Signature\' and \'SignedHeaders\' parameters.']
      : [403, 'MissingAuthenticationToken', 'Request is missing Authentication Token']
  }
  if (parts.service !== 'sts') return [403, 'SignatureDoesNotMatch', `Credential should be scoped to correct service: 'sts'. `]
  if (conf.region && parts.region !== conf.region) return [403, 'SignatureDoesNotMatch', 'Credential should be scoped to a valid region. ']
  const id = parts.accessKeyId
  let key = null
  const listed = own(conf.keys, id)
  if (typeof listed === 'string') key = { secret: listed, token: null, arn: `arn:aws:iam::${ACCOUNT}:user/anvil-test` }
  else if (listed && typeof listed === 'object') {
    key = { secret: String(listed.secret || ''), token: listed.token || null, arn: listed.arn || `arn:aws:iam::${ACCOUNT}:user/anvil-test` }
  } else if (issued.has(id)) key = issued.get(id)
  if (!key) return [403, 'InvalidClientTokenId', 'The security token included in the request is invalid.']
  const sent = req.headers['x-amz-security-token']
  if ((key.token || null) !== (sent === undefined ? null : sent)) {
    return [403, 'InvalidClientTokenId', 'The security token included in the request is invalid.']
  }
  const bad = checkSignature(req, body, () => key.secret)
  if (bad) {
    console.error('fake_creds: sts signature: ' + bad.replace(/^(x-amz-security-token:).*$/gm, '$1<redacted>'))
    return [403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. ' +
      'Check your AWS Secret Access Key and signing method. Consult the service documentation for details.']
  }
  if (key.expiresMs != null && key.expiresMs <= now()) return [403, 'ExpiredToken', 'The security token included in the request is expired']
  return { id, arn: key.arn, userId: key.userId || stableId('AIDA', id) }
}

// The claims of a JWT, or {} when the token is not one.
function claims (token) {
  try { return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) || {} } catch { return {} }
}

function assumeRole (req, conf, form, body, done) {
  const arn = form.get('RoleArn')
  const who = signer(req, body, conf)
  if (Array.isArray(who)) return done(...who)
  const invalid = validate(form, [
    ['RoleArn', 'roleArn', ROLE_ARN],
    ['RoleSessionName', 'roleSessionName', SESSION_NAME],
    ['DurationSeconds', 'durationSeconds', optional(duration)],
    ['ExternalId', 'externalId', optional(all(length(2, 1224), pattern(/^[\w+=,.@:/-]*$/, '[\\w+=,.@:\\/-]*')))],
    ['SerialNumber', 'serialNumber', optional(all(length(9, 256), pattern(/^[\w+=/:,.@-]*$/, '[\\w+=/:,.@-]*')))],
    ['TokenCode', 'tokenCode', optional(all(length(6, 6), pattern(/^\d*$/, '[\\d]*')))]
  ])
  if (invalid) return done(400, 'ValidationError', invalid)
  const role = own(conf.roles, arn)
  const denied = !role ||
    (role.external_id != null && form.get('ExternalId') !== role.external_id) ||
    (role.source_key != null && who.id !== role.source_key)
  if (denied) return done(403, 'AccessDenied', `User: ${who.arn} is not authorized to perform: sts:AssumeRole on resource: ${arn}`)
  const entry = step('sts ' + arn, role.credentials)
  if (typeof entry === 'string') return done(200, null, null, entry)
  const c = credentials(entry, Number(form.get('DurationSeconds') || 3600))
  const user = assumedRole(arn, form.get('RoleSessionName'))
  issue(c, user.arn, user.userId)
  done(200, null, null, `<AssumeRoleResponse xmlns="${STS_NS}">\n  <AssumeRoleResult>\n` +
    credentialsXml(c, '    ') + assumedRoleUserXml(user, '    ') +
    `  </AssumeRoleResult>\n${metadataXml()}</AssumeRoleResponse>\n`)
}

function assumeRoleWithWebIdentity (req, conf, form, done) {
  if (req.headers.authorization !== undefined || req.headers['x-amz-security-token'] !== undefined) {
    return done(400, 'InvalidParameterValue', 'AssumeRoleWithWebIdentity takes no AWS credentials, but the request was signed')
  }
  const invalid = validate(form, [
    ['RoleArn', 'roleArn', ROLE_ARN],
    ['RoleSessionName', 'roleSessionName', SESSION_NAME],
    ['WebIdentityToken', 'webIdentityToken', required(length(4, 20000))],
    ['DurationSeconds', 'durationSeconds', optional(duration)],
    ['ProviderId', 'providerId', optional(length(4, 2048))]
  ])
  if (invalid) return done(400, 'ValidationError', invalid)
  const token = form.get('WebIdentityToken')
  const arn = form.get('RoleArn')
  const known = own(conf.web_identity, token)
  if (known === undefined || known === null) {
    return done(400, 'InvalidIdentityToken', 'The web identity token that was passed could not be validated by AWS. ' +
      'Get a new identity token from the identity provider and then retry the request.')
  }
  const mapping = typeof known === 'string' ? { role: known } : known
  if (mapping.role !== arn) return done(403, 'AccessDenied', 'Not authorized to perform sts:AssumeRoleWithWebIdentity')
  const role = own(conf.roles, arn) || {}
  const entry = step('sts ' + arn, role.credentials)
  if (typeof entry === 'string') return done(200, null, null, entry)
  const c = credentials(entry, Number(form.get('DurationSeconds') || 3600))
  const user = assumedRole(arn, form.get('RoleSessionName'))
  issue(c, user.arn, user.userId)
  const jwt = claims(token)
  const aud = Array.isArray(jwt.aud) ? jwt.aud[0] : jwt.aud
  const subject = mapping.subject || jwt.sub || 'system:serviceaccount:default:anvil'
  const audience = mapping.audience || aud || 'sts.amazonaws.com'
  const provider = mapping.provider || (jwt.iss ? String(jwt.iss).replace(/^https:\/\//, '') : `arn:aws:iam::${ACCOUNT}:oidc-provider/oidc.example.com`)
  done(200, null, null, `<AssumeRoleWithWebIdentityResponse xmlns="${STS_NS}">\n  <AssumeRoleWithWebIdentityResult>\n` +
    `    <SubjectFromWebIdentityToken>${xmlText(subject)}</SubjectFromWebIdentityToken>\n` +
    `    <Audience>${xmlText(audience)}</Audience>\n` +
    assumedRoleUserXml(user, '    ') + credentialsXml(c, '    ') +
    `    <Provider>${xmlText(provider)}</Provider>\n` +
    `  </AssumeRoleWithWebIdentityResult>\n${metadataXml()}</AssumeRoleWithWebIdentityResponse>\n`)
}

function getCallerIdentity (req, conf, body, done) {
  const who = signer(req, body, conf)
  if (Array.isArray(who)) return done(...who)
  done(200, null, null, `<GetCallerIdentityResponse xmlns="${STS_NS}">\n  <GetCallerIdentityResult>\n` +
    `    <Arn>${xmlText(who.arn)}</Arn>\n    <UserId>${xmlText(who.userId)}</UserId>\n` +
    `    <Account>${xmlText(accountOf(who.arn))}</Account>\n` +
    `  </GetCallerIdentityResult>\n${metadataXml()}</GetCallerIdentityResponse>\n`)
}

function sts (req, res, conf, body) {
  const form = /^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] || '')
    ? new URLSearchParams(body.toString('utf8')) : new URLSearchParams()
  const action = form.get('Action')
  let detail = form.get('RoleArn')
  if (action === 'GetCallerIdentity') detail = (parseAuthorization(req) || {}).accessKeyId
  // done(status, code, message): an error document; done(200, null, null, body): that answer.
  const done = (status, code, message, answer) => {
    log('sts', action, detail, status)
    if (code) return stsError(res, status, code, message)
    stsXml(res, status, answer)
  }
  if (conf.error) {
    const e = conf.error
    return done(e.status == null ? 400 : status(e.status), e.code || 'InternalFailure', e.message || 'An internal error occurred')
  }
  if (!action) return done(400, 'MissingAction', 'Missing Action')
  const known = ['AssumeRole', 'AssumeRoleWithWebIdentity', 'GetCallerIdentity'].includes(action)
  if (!known || form.get('Version') !== '2011-06-15') {
    return done(400, 'InvalidAction', `Could not find operation ${action} for version ${form.get('Version') || 'NO_VERSION_SPECIFIED'}`)
  }
  if (action === 'AssumeRole') return assumeRole(req, conf, form, body, done)
  if (action === 'AssumeRoleWithWebIdentity') return assumeRoleWithWebIdentity(req, conf, form, done)
  getCallerIdentity(req, conf, body, done)
}

// ---- SSO portal and SSO OIDC (restJson1) -----------------------------------------

function restError (res, status, type, body) {
  send(res, status, { 'Content-Type': 'application/json', 'x-amzn-RequestId': requestId(), 'x-amzn-ErrorType': type }, JSON.stringify(body))
}
function restJson (res, body) {
  send(res, 200, { 'Content-Type': 'application/json', 'x-amzn-RequestId': requestId() }, typeof body === 'string' ? body : JSON.stringify(body))
}

function sso (req, res, conf, url) {
  const roleName = url.searchParams.get('role_name')
  const accountId = url.searchParams.get('account_id')
  const resource = `${accountId || ''}/${roleName || ''}`
  const done = (status) => log('sso', 'GetRoleCredentials', resource, status)
  const fail = (status, type, message) => { done(status); restError(res, status, type, { message }) }
  if (url.pathname !== '/federation/credentials') return fail(404, 'UnknownOperationException', 'Unknown operation')
  if (req.method !== 'GET') return fail(405, 'UnknownOperationException', 'Unknown operation')
  if (req.headers.authorization !== undefined) return fail(400, 'InvalidRequestException', 'GetRoleCredentials takes no AWS signature')
  if (!roleName || !accountId) return fail(400, 'InvalidRequestException', 'role_name and account_id are required')
  const token = req.headers['x-amz-sso_bearer_token']
  const valid = token !== undefined && ((conf.access_tokens || []).includes(token) || oidcIssued.has(token))
  if (!valid) return fail(401, 'UnauthorizedException', 'Session token not found or invalid')
  const role = own(conf.roles, resource)
  if (!role) return fail(403, 'ForbiddenException', 'No access')
  const entry = step('sso ' + resource, role.credentials)
  if (typeof entry === 'string') { done(200); return restJson(res, entry) }
  const c = credentials(entry, 3600)
  const roleArn = `arn:aws:iam::${accountId}:role/aws-reserved/sso.amazonaws.com/AWSReservedSSO_${roleName}_0123456789abcdef`
  const who = assumedRole(roleArn, 'anvil-test')
  issue(c, who.arn, who.userId)
  const expirationValue = c.expiration.text === null ? null
    : typeof c.expiration.text === 'number' || c.expiration.ms === null ? c.expiration.text : c.expiration.ms
  const roleCredentials = { accessKeyId: c.id, secretAccessKey: c.secret, sessionToken: c.token, expiration: expirationValue }
  for (const k of Object.keys(roleCredentials)) if (roleCredentials[k] === null) delete roleCredentials[k]
  done(200)
  restJson(res, { roleCredentials })
}

function oidc (req, res, conf, pathname, body) {
  let input = {}
  try { input = JSON.parse(body.toString('utf8') || '{}') || {} } catch { input = null }
  const client = input && typeof input.clientId === 'string' ? input.clientId : ''
  const done = (status) => log('oidc', 'CreateToken', client, status)
  const fail = (status, type, error, description) => { done(status); restError(res, status, type, { error, error_description: description }) }
  if (pathname !== '/token') return fail(404, 'UnknownOperationException', 'unknown_operation', 'Unknown operation')
  if (req.method !== 'POST') return fail(405, 'UnknownOperationException', 'unknown_operation', 'Unknown operation')
  if (req.headers.authorization !== undefined) return fail(400, 'InvalidRequestException', 'invalid_request', 'CreateToken takes no AWS signature')
  if (!input || typeof input !== 'object') return fail(400, 'InvalidRequestException', 'invalid_request', 'The request body is not a JSON object')
  if (!input.clientId || !input.clientSecret || !input.grantType) {
    return fail(400, 'InvalidRequestException', 'invalid_request', 'clientId, clientSecret and grantType are required')
  }
  if (input.clientId !== conf.client_id || input.clientSecret !== conf.client_secret) {
    return fail(401, 'InvalidClientException', 'invalid_client', 'Invalid client provided')
  }
  if (input.grantType !== 'refresh_token') {
    return fail(400, 'UnsupportedGrantTypeException', 'unsupported_grant_type', 'Unsupported grant type: ' + input.grantType)
  }
  const rt = input.refreshToken
  if (typeof rt !== 'string' || own(conf.refresh_tokens, rt) == null) {
    return fail(400, 'InvalidGrantException', 'invalid_grant', 'Invalid refresh token provided')
  }
  const entry = step('oidc ' + rt, own(conf.refresh_tokens, rt)) || {}
  if (typeof entry === 'string') { done(200); return restJson(res, entry) }
  const pick = (name, made) => name in entry ? entry[name] : made
  const answer = {
    accessToken: pick('accessToken', 'aoa' + crypto.randomBytes(48).toString('base64url')),
    tokenType: pick('tokenType', 'Bearer'),
    expiresIn: pick('expiresIn', 3600),
    refreshToken: pick('refreshToken', rt)
  }
  for (const k of Object.keys(answer)) if (answer[k] === null) delete answer[k]
  if (typeof answer.accessToken === 'string') oidcIssued.add(answer.accessToken)
  done(200)
  restJson(res, answer)
}

// ---- the server ------------------------------------------------------------

function route (script, method, pathname) {
  if (script.ecs && script.ecs.path && pathname === script.ecs.path) return 'ecs'
  if (pathname.startsWith('/latest/')) return 'imds'
  if (pathname.startsWith('/federation/')) return 'sso'
  if (pathname === '/token' || pathname.startsWith('/token/')) return 'oidc'
  if (method === 'POST' && pathname === '/') return 'sts'
  return 'unknown'
}

function readScript () {
  try {
    const text = fs.readFileSync(scriptPath, 'utf8')
    const script = JSON.parse(text)
    if (text !== lastScript) { seen = {}; lastScript = text } // a changed script's lists start afresh
    return script && typeof script === 'object' ? script : {}
  } catch (e) {
    // The message may quote the script (secrets): only where it broke.
    const at = /position \d+/.exec(String(e.message))
    console.error(`fake_creds: cannot read SCRIPT (${e.code || e.name}${at ? ', ' + at[0] : ''})`)
    return null
  }
}

const server = http.createServer((req, res) => {
  requestTime = amzDate(req.headers['x-amz-date'])
  let url
  try { url = new URL(req.url, 'http://127.0.0.1') } catch { url = new URL('http://127.0.0.1/') }
  const pathname = url.pathname
  const script = readScript()
  const service = script ? route(script, req.method, pathname) : 'fake'
  const chunks = []
  let size = 0
  let over = false
  req.on('data', (c) => {
    if (over) return
    size += c.length
    if (size > MAX_BODY) {
      over = true
      log(service, req.method, pathname, 413)
      send(res, 413, { 'Content-Type': 'text/plain', Connection: 'close' }, 'request body over 1 MB\n')
      return
    }
    chunks.push(c)
  })
  req.on('end', () => {
    if (over) return
    const body = Buffer.concat(chunks)
    if (!script) {
      log('fake', req.method, 'SCRIPT', 500)
      return send(res, 500, { 'Content-Type': 'text/plain' }, 'fake_creds: SCRIPT is not valid JSON\n')
    }
    const conf = service === 'unknown' ? null : script[service]
    if (service === 'unknown' || !conf) {
      log(service, req.method, pathname, 404)
      return send(res, 404, { 'Content-Type': 'text/plain' }, 'not faked\n')
    }
    logged = false
    try {
      if (service === 'ecs') return ecs(req, res, conf, pathname)
      if (service === 'imds') return imds(req, res, conf, pathname)
      if (service === 'sso') return sso(req, res, conf, url)
      if (service === 'oidc') return oidc(req, res, conf, pathname, body)
      sts(req, res, conf, body)
    } catch (e) { // a script of the wrong shape: say so rather than die
      console.error(`fake_creds: ${service}: ${e.name} ${e.stack.split('\n')[1].trim()}`)
      if (!logged) log(service, req.method, pathname, 500)
      if (!res.headersSent) send(res, 500, { 'Content-Type': 'text/plain' }, 'fake_creds: internal error\n')
    }
  })
})
server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port))
const stop = () => { server.close(); process.exit(0) }
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
