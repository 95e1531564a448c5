// Node peers (jmespath, @jmespath-community/jmespath): reads a plan, prints
// "name<TAB>seconds per operation". These libraries have no public "search
// a compiled tree" call, so every mode includes parsing the expression
// (a few microseconds at most), as in research/jmespath.md.
'use strict';
const fs = require('fs');
const lib = require(process.argv[3]);

function measure(op) {
  op();
  let start = process.hrtime.bigint();
  op();
  const once = Math.max(Number(process.hrtime.bigint() - start) / 1e9, 1e-7);
  const iterations = Math.max(1, Math.floor(0.05 / once));
  const samples = [];
  for (let s = 0; s < 7; s++) {
    start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) op();
    samples.push(Number(process.hrtime.bigint() - start) / 1e9 / iterations);
  }
  samples.sort((a, b) => a - b);
  return samples[3];
}

const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const docs = {};
for (const c of plan) {
  if (!(c.doc in docs)) docs[c.doc] = JSON.parse(fs.readFileSync(c.doc, 'utf8'));
  const data = docs[c.doc];
  const op = c.mode === 'parse' ? () => lib.compile(c.expr) : () => lib.search(data, c.expr);
  fs.writeSync(1, `${c.name}\t${measure(op)}\n`);
}
