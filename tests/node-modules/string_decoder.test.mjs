// node:string_decoder.
import { diff } from './harness/cases.mjs';

diff('string_decoder', `
  const d = new M.string_decoder.StringDecoder("utf8");
  const b = M.buffer.Buffer.from("€😀");
  const out = [];
  for (const byte of b) out.push(d.write(M.buffer.Buffer.from([byte])));
  out.push(d.end());
  const h = new M.string_decoder.StringDecoder("hex");
  return [out, h.write(M.buffer.Buffer.from([1, 255])), new M.string_decoder.StringDecoder("base64").write(M.buffer.Buffer.from("ab")), d.encoding];`);
