// ESM Function: HTML entities (entities, ESM-only) and Base64 helpers (js-base64), plus node: imports.
import { encodeHTML, decodeHTML, escapeUTF8 } from 'entities';
import { Base64 } from 'js-base64';
import path from 'node:path';
import { Buffer } from 'node:buffer';

const started = await Promise.resolve('top-level await works');

export const main = async (event) => {
  const text = typeof event.data === 'string' ? event.data : 'Fish & Chips <£5> "quoted" — naïve café';
  return {
    started,
    encoded: encodeHTML(text),
    escaped: escapeUTF8(text),
    decoded: decodeHTML('&lt;p&gt;caf&eacute; &amp; cr&egrave;me &#x1F600; &copy;&nbsp;2024&hellip;&lt;/p&gt;'),
    base64: Base64.encode(text),
    base64Url: Base64.encodeURI(text),
    base64Decoded: Base64.decode('SGVsbG8sIOS4lueVjA=='),
    agreesWithBuffer: Base64.encode(text) === Buffer.from(text).toString('base64'),
    isValid: [Base64.isValid('SGVsbG8='), Base64.isValid('%%%')],
    importMetaUrl: typeof import.meta.url,
    handlerFile: path.basename(new URL(import.meta.url).pathname),
  };
};
