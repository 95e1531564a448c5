// Starts an emulator on 127.0.0.1 and a free port, prints "PORT <n>", and
// stops when its standard input closes (the test's end) or on SIGTERM.
// Usage: node start.js dynalite|kinesalite [createMs]
'use strict'
const kind = process.argv[2]
const createMs = Number(process.argv[3] || 500)
let server
if (kind === 'dynalite') {
  server = require('dynalite')({ createTableMs: createMs, deleteTableMs: createMs, updateTableMs: createMs })
} else if (kind === 'kinesalite') {
  server = require('kinesalite')({ createStreamMs: createMs, deleteStreamMs: createMs, updateStreamMs: createMs })
} else {
  console.error('usage: node start.js dynalite|kinesalite [createMs]')
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
