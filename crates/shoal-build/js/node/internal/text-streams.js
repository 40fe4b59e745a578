'use strict';
// TextEncoderStream and TextDecoderStream (Encoding Standard), as
// TransformStreams over Shoal's TextEncoder/TextDecoder.

const { TransformStream, customInspect, inspectSymbol } = require('./web-streams');
const { TextDecoder, encodeUtf8 } = require('./text-coding');
const { nodeError } = require('./errors');

function invalidThis(type) {
  return nodeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type ${type}`);
}

// Node's accessors are enumerable; only the compression classes have a
// toStringTag in Node 20.
function defineCommon(Class, name, fields, tagged) {
  // esbuild renames a class whose name a Function also uses as a global.
  Object.defineProperty(Class, 'name', { value: name, configurable: true });
  for (const field of [...fields, 'readable', 'writable']) {
    Object.defineProperty(Class.prototype, field, { enumerable: true });
  }
  if (tagged) Object.defineProperty(Class.prototype, Symbol.toStringTag, { value: name, configurable: true });
  Object.defineProperty(Class.prototype, inspectSymbol, {
    value(depth, options, inspect) {
      const data = {};
      for (const field of [...fields, 'readable', 'writable']) data[field] = this[field];
      return customInspect(this, name, depth, options, inspect, data);
    },
    writable: true,
    configurable: true,
  });
}

class TextEncoderStream {
  #transform;

  constructor() {
    // A high surrogate that ended the last chunk waits for the next one
    // ("encode and enqueue a chunk").
    let pending = '';
    this.#transform = new TransformStream({
      transform(chunk, controller) {
        let text = pending + `${chunk}`;
        pending = '';
        const last = text.charCodeAt(text.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          pending = text[text.length - 1];
          text = text.slice(0, -1);
        }
        if (text.length > 0) controller.enqueue(encodeUtf8(text));
      },
      flush(controller) {
        if (pending) controller.enqueue(new Uint8Array([0xef, 0xbf, 0xbd]));
      },
    });
  }

  get encoding() {
    if (!(#transform in this)) throw invalidThis('TextEncoderStream');
    return 'utf-8';
  }

  get readable() {
    if (!(#transform in this)) throw invalidThis('TextEncoderStream');
    return this.#transform.readable;
  }

  get writable() {
    if (!(#transform in this)) throw invalidThis('TextEncoderStream');
    return this.#transform.writable;
  }
}
defineCommon(TextEncoderStream, 'TextEncoderStream', ['encoding']);

function isBufferSource(chunk) {
  if (ArrayBuffer.isView(chunk)) return true;
  const tag = Object.prototype.toString.call(chunk);
  return tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]';
}

class TextDecoderStream {
  #decoder;
  #transform;

  constructor(encoding = 'utf-8', options = undefined) {
    const decoder = new TextDecoder(encoding, options);
    this.#decoder = decoder;
    this.#transform = new TransformStream({
      transform(chunk, controller) {
        if (!isBufferSource(chunk)) {
          throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
            'The "input" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.');
        }
        const text = decoder.decode(chunk, { stream: true });
        if (text) controller.enqueue(text);
      },
      flush(controller) {
        const text = decoder.decode();
        if (text) controller.enqueue(text);
      },
    });
  }

  get encoding() {
    if (!(#decoder in this)) throw invalidThis('TextDecoderStream');
    return this.#decoder.encoding;
  }

  get fatal() {
    if (!(#decoder in this)) throw invalidThis('TextDecoderStream');
    return this.#decoder.fatal;
  }

  get ignoreBOM() {
    if (!(#decoder in this)) throw invalidThis('TextDecoderStream');
    return this.#decoder.ignoreBOM;
  }

  get readable() {
    if (!(#decoder in this)) throw invalidThis('TextDecoderStream');
    return this.#transform.readable;
  }

  get writable() {
    if (!(#decoder in this)) throw invalidThis('TextDecoderStream');
    return this.#transform.writable;
  }
}
defineCommon(TextDecoderStream, 'TextDecoderStream', ['encoding', 'fatal', 'ignoreBOM']);

module.exports = { TextEncoderStream, TextDecoderStream, defineCommon, invalidThis };
