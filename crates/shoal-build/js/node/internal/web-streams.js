'use strict';
// WHATWG Streams (ReadableStream, WritableStream, TransformStream, their
// readers, writers and controllers, and the two queuing strategies): the
// web-streams-polyfill package (the spec's reference implementation, kept
// up with the Streams Standard), with what Node.js adds on top: the
// util.inspect() forms Node prints. The package's classes are used as they
// are, not subclassed, because the streams it creates itself (tee(),
// pipeThrough(), ReadableStream.from()) are instances of its own classes.

const ws = require('web-streams-polyfill');

const {
  ReadableStream, ReadableStreamDefaultReader, ReadableStreamBYOBReader, ReadableStreamBYOBRequest,
  ReadableByteStreamController, ReadableStreamDefaultController, WritableStream, WritableStreamDefaultWriter,
  WritableStreamDefaultController, TransformStream, TransformStreamDefaultController, ByteLengthQueuingStrategy,
  CountQueuingStrategy,
} = ws;

const classes = {
  ReadableStream, ReadableStreamDefaultReader, ReadableStreamBYOBReader, ReadableStreamBYOBRequest,
  ReadableByteStreamController, ReadableStreamDefaultController, WritableStream, WritableStreamDefaultWriter,
  WritableStreamDefaultController, TransformStream, TransformStreamDefaultController, ByteLengthQueuingStrategy,
  CountQueuingStrategy,
};
// esbuild renames a class whose name a Function also uses as a global
// (ReadableStream2): pin the names Node shows.
for (const [name, Class] of Object.entries(classes)) Object.defineProperty(Class, 'name', { value: name, configurable: true });

// Node 20 follows the current Streams Standard, which dropped this.
delete WritableStreamDefaultController.prototype.abortReason;

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

// As Node's lib/internal/webstreams/util.js customInspect: "Name { ... }",
// one level of depth spent on the object shown.
function customInspect(self, name, depth, options, inspect, data) {
  if (depth < 0) return self;
  const opts = { ...options, depth: options.depth == null ? null : options.depth - 1 };
  return `${name} ${inspect(data, opts)}`;
}

function defineInspect(Class, data) {
  const name = Class.name;
  Object.defineProperty(Class.prototype, inspectSymbol, {
    value(depth, options, inspect) {
      return customInspect(this, name, depth, options, inspect, data(this));
    },
    writable: true,
    configurable: true,
  });
}

defineInspect(ReadableStream, (s) => ({
  locked: s.locked,
  state: s._state,
  supportsBYOB: s._readableStreamController instanceof ReadableByteStreamController,
}));
defineInspect(WritableStream, (s) => ({ locked: s.locked, state: s._state }));
defineInspect(TransformStream, (s) => ({ readable: s.readable, writable: s.writable, backpressure: s._backpressure }));
defineInspect(ReadableStreamDefaultReader, (r) => ({
  stream: r._ownerReadableStream,
  readRequests: r._readRequests ? r._readRequests.length : 0,
  close: r.closed,
}));
defineInspect(ReadableStreamBYOBReader, (r) => ({
  stream: r._ownerReadableStream,
  requestIntoRequests: r._readIntoRequests ? r._readIntoRequests.length : 0,
  close: r.closed,
}));
defineInspect(WritableStreamDefaultWriter, (w) => ({
  stream: w._ownerWritableStream,
  close: w.closed,
  ready: w.ready,
  desiredSize: w._ownerWritableStream ? w.desiredSize : null,
}));
defineInspect(CountQueuingStrategy, (s) => ({ highWaterMark: s.highWaterMark }));
defineInspect(ByteLengthQueuingStrategy, (s) => ({ highWaterMark: s.highWaterMark }));

module.exports = {
  ReadableStream,
  ReadableStreamDefaultReader,
  ReadableStreamBYOBReader,
  ReadableStreamBYOBRequest,
  ReadableByteStreamController,
  ReadableStreamDefaultController,
  TransformStream,
  TransformStreamDefaultController,
  WritableStream,
  WritableStreamDefaultWriter,
  WritableStreamDefaultController,
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
  customInspect,
  inspectSymbol,
};
