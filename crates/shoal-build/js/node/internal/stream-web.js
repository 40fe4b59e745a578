'use strict';
// node:stream/web: the WHATWG stream classes Node.js also has as globals.

const streams = require('./web-streams');
const { TextEncoderStream, TextDecoderStream } = require('./text-streams');
const { CompressionStream, DecompressionStream } = require('./compression-streams');

module.exports = {
  ReadableStream: streams.ReadableStream,
  ReadableStreamDefaultReader: streams.ReadableStreamDefaultReader,
  ReadableStreamBYOBReader: streams.ReadableStreamBYOBReader,
  ReadableStreamBYOBRequest: streams.ReadableStreamBYOBRequest,
  ReadableByteStreamController: streams.ReadableByteStreamController,
  ReadableStreamDefaultController: streams.ReadableStreamDefaultController,
  TransformStream: streams.TransformStream,
  TransformStreamDefaultController: streams.TransformStreamDefaultController,
  WritableStream: streams.WritableStream,
  WritableStreamDefaultWriter: streams.WritableStreamDefaultWriter,
  WritableStreamDefaultController: streams.WritableStreamDefaultController,
  ByteLengthQueuingStrategy: streams.ByteLengthQueuingStrategy,
  CountQueuingStrategy: streams.CountQueuingStrategy,
  TextEncoderStream,
  TextDecoderStream,
  CompressionStream,
  DecompressionStream,
};
