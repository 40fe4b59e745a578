// Web and Node.js globals for Shoal Functions. The bundler injects them
// with esbuild's `inject`: each export replaces the free references to the
// global of the same name in a Function's code, so a Function only carries
// the implementations it uses. Every export is a re-export from the file
// that defines it: a build injects only the globals its code names, from
// their own files (bundler/injected-globals.mjs). (setImmediate,
// clearImmediate, timers, TextEncoder/TextDecoder basics, console and
// process come from Shoal's prelude and the engine.)

export { URL, URLSearchParams } from './internal/url.js';
export { Buffer } from './buffer.js';
export { atob, btoa } from './internal/base64.js';
export { structuredClone } from './internal/structured-clone.js';
export { EventTarget, Event, CustomEvent } from './internal/event-target.js';
export { AbortController, AbortSignal } from './internal/abort.js';
export { DOMException } from './internal/dom-exception.js';
export { Blob, File } from './internal/blob.js';
export { FormData } from './internal/form-data.js';
export { fetch, Headers, Request, Response } from './internal/fetch.js';
export { TextEncoder, TextDecoder } from './internal/text-coding.js';
export { Intl } from './intl.js';
export {
  ReadableStream, ReadableStreamDefaultReader, ReadableStreamBYOBReader, ReadableStreamBYOBRequest,
  ReadableByteStreamController, ReadableStreamDefaultController, TransformStream, TransformStreamDefaultController,
  WritableStream, WritableStreamDefaultWriter, WritableStreamDefaultController, ByteLengthQueuingStrategy,
  CountQueuingStrategy,
} from './internal/web-streams.js';
export { TextEncoderStream, TextDecoderStream } from './internal/text-streams.js';
export { CompressionStream, DecompressionStream } from './internal/compression-streams.js';
export { MessageChannel, MessagePort, MessageEvent, BroadcastChannel } from './internal/messaging.js';
export { WebSocket, CloseEvent } from './internal/websocket.js';

// Node 20's global `crypto` is the Web Crypto object (randomUUID,
// getRandomValues, subtle).
export { webcrypto as crypto } from './crypto.js';
export { CryptoKey, SubtleCrypto } from './internal/crypto/webcrypto.js';
export { globalObject as global } from './internal/global-object.js';
