// Web-platform globals Node provides: structuredClone, atob/btoa, TextEncoder, WeakRef, performance...
module.exports = {
  main: async function () {
    const original = { when: new Date(Date.UTC(2024, 0, 1)), tags: new Set(['a']), map: new Map([['k', { deep: [1, 2] }]]), re: /ab+c/gi, n: 1n, nested: { arr: [1, { x: 2 }] } };
    original.self = original;
    const clone = structuredClone(original);
    let cloneError;
    try {
      structuredClone({ fn() {} });
    } catch (err) {
      cloneError = err.name;
    }

    const encoded = new TextEncoder().encode('Grüße €');
    const decoder = new TextDecoder('utf-8');
    const latin = new TextDecoder('latin1').decode(new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    let fatal;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff]));
    } catch (err) {
      fatal = err.name;
    }

    const target = { id: 1 };
    const ref = new WeakRef(target);
    const registry = new FinalizationRegistry(() => {});
    registry.register(target, 'token');
    const weakMap = new WeakMap([[target, 'meta']]);

    const micro = [];
    queueMicrotask(() => micro.push('queued'));
    await Promise.resolve();
    micro.push('after-await');

    const t0 = performance.now();
    const mark = performance.mark ? typeof performance.mark : 'missing';

    const ac = new AbortController();
    const reasons = [];
    ac.signal.addEventListener('abort', () => reasons.push(String(ac.signal.reason)));
    ac.abort('user cancelled');

    return {
      clone: {
        dateIsDate: clone.when instanceof Date && clone.when.getTime() === original.when.getTime(),
        setHas: clone.tags.has('a'),
        mapDeep: clone.map.get('k').deep,
        notSameRef: clone.map.get('k') !== original.map.get('k'),
        regexp: [clone.re.source, clone.re.flags],
        bigint: typeof clone.n,
        cyclic: clone.self === clone,
        nested: clone.nested,
      },
      cloneError,
      btoa: btoa('Kyma:Shoal'),
      atob: atob('SGVsbG8sIFdvcmxkIQ=='),
      btoaLatin1: btoa(String.fromCharCode(0xe9, 0xff)),
      btoaError: (() => {
        try {
          btoa('€');
          return 'no error';
        } catch (err) {
          return err.name;
        }
      })(),
      encoded: Array.from(encoded),
      decoded: decoder.decode(encoded),
      encoding: decoder.encoding,
      latin,
      fatal,
      encodeInto: new TextEncoder().encodeInto('abc', new Uint8Array(2)),
      weakRef: ref.deref() === target,
      weakMap: weakMap.get(target),
      micro,
      performanceNow: typeof t0 === 'number' && t0 >= 0,
      timeOrigin: typeof performance.timeOrigin,
      mark,
      abort: { aborted: ac.signal.aborted, reasons },
      globals: {
        globalIsGlobalThis: global === globalThis,
        selfDefined: typeof self,
        windowDefined: typeof window,
        fetch: typeof fetch,
        crypto: typeof crypto,
        require: typeof require,
        moduleExports: typeof module.exports,
        dirname: typeof __dirname,
        blob: typeof Blob,
        broadcastChannel: typeof BroadcastChannel,
        messageChannel: typeof MessageChannel,
        readableStream: typeof ReadableStream,
        compressionStream: typeof CompressionStream,
        domException: typeof DOMException,
      },
    };
  },
};
