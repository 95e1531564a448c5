// Starts an emulator on 127.0.0.1 and a free port, prints "PORT <n>", and
// stops when its standard input closes (the test's end) or on SIGTERM.
// Usage: node start.js dynalite|kinesalite [createMs] | s3rver
// s3rver keeps its buckets in a temporary folder removed when it stops, and
// checks SigV4 signatures made with the key S3RVER / S3RVER.
'use strict'
const kind = process.argv[2]
const createMs = Number(process.argv[3] || 500)
let server
if (kind === 's3rver') {
  const fs = require('fs')
  const os = require('os')
  const path = require('path')
  const S3rver = require('s3rver')
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-s3rver-'))
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory })
  s3.run().then(({ port }) => console.log('PORT ' + port))
  const stop = () => {
    s3.close().finally(() => {
      fs.rmSync(directory, { recursive: true, force: true })
      process.exit(0)
    })
  }
  process.stdin.on('end', stop)
  process.stdin.on('close', stop)
  process.stdin.resume()
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  return
}
if (kind === 'dynalite') {
  server = require('dynalite')({ createTableMs: createMs, deleteTableMs: createMs, updateTableMs: createMs })
} else if (kind === 'kinesalite') {
  server = require('kinesalite')({ createStreamMs: createMs, deleteStreamMs: createMs, updateStreamMs: createMs })
} else {
  console.error('usage: node start.js dynalite|kinesalite [createMs] | s3rver')
  process.exit(64)
}
server.listen(0, '127.0.0.1', () => {
  console.log('PORT ' + server.address().port)
})
const stop = () => { server.close(); process.exit(0) }
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
