// Stream processing of a line-based upload: Readable.from, Transform, pipeline.
const { Readable, Transform, Writable, PassThrough } = require('stream');
const { pipeline } = require('stream/promises');
const { pipeline: pipelineCb } = require('node:stream');

function lineSplitter() {
  let rest = '';
  return new Transform({
    readableObjectMode: true,
    transform(chunk, enc, cb) {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop();
      for (const l of lines) if (l.trim()) this.push(l.trim());
      cb();
    },
    flush(cb) {
      if (rest.trim()) this.push(rest.trim());
      cb();
    },
  });
}

module.exports = {
  main: async function (event) {
    const text = typeof event.data === 'string' ? event.data : 'alpha 3\nbeta 5\n\ngamma 7\ndelta';
    const chunks = text.match(/[\s\S]{1,4}/g) || [];
    const records = [];
    await pipeline(
      Readable.from(chunks),
      lineSplitter(),
      new Transform({
        objectMode: true,
        transform(line, enc, cb) {
          const [name, n] = line.split(' ');
          cb(null, { name: name.toUpperCase(), n: Number(n || 0) });
        },
      }),
      new Writable({
        objectMode: true,
        write(rec, enc, cb) {
          records.push(rec);
          cb();
        },
      }),
    );

    const collected = [];
    for await (const c of Readable.from(['a', 'b', 'c'])) collected.push(c);

    const pass = new PassThrough();
    const bufs = [];
    pass.on('data', (d) => bufs.push(d));
    pass.write('one,');
    pass.end('two');
    await new Promise((r) => pass.on('end', r));

    const failed = await new Promise((resolve) =>
      pipelineCb(
        Readable.from(['x']),
        new Transform({ transform(c, e, cb) { cb(new Error('bad chunk')); } }),
        new PassThrough(),
        (err) => resolve(err ? err.message : 'no error'),
      ),
    );

    return {
      records,
      total: records.reduce((s, r) => s + r.n, 0),
      collected,
      passThrough: Buffer.concat(bufs).toString(),
      failed,
      objectModeHighWaterMark: new Readable({ objectMode: true }).readableHighWaterMark,
    };
  },
};
