'use strict';
// node:stream/consumers for Shoal Functions: reads a whole stream (a Node
// Readable, a web ReadableStream or any async iterable) as text, JSON, a
// Buffer, an ArrayBuffer or a Blob, as Node's lib/stream/consumers.js does.
const { Blob } = require('../internal/blob.js');
const { TextDecoder } = require('../internal/text-coding.js');
const { Buffer } = require('../buffer.js');

async function blob(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return new Blob(chunks);
}

async function arrayBuffer(stream) {
  const all = await blob(stream);
  return all.arrayBuffer();
}

async function buffer(stream) {
  return Buffer.from(await arrayBuffer(stream));
}

async function text(stream) {
  const decoder = new TextDecoder();
  let str = '';
  for await (const chunk of stream) {
    if (typeof chunk === 'string') str += chunk;
    else str += decoder.decode(chunk, { stream: true });
  }
  // A multi-byte character cut off at the end becomes U+FFFD.
  str += decoder.decode(undefined, { stream: false });
  return str;
}

async function json(stream) {
  return JSON.parse(await text(stream));
}

module.exports = { arrayBuffer, blob, buffer, text, json };
