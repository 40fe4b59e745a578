'use strict';
// Byte helpers shared by the modules that buffer whole bodies (crypto's
// Hash/Hmac, Blob, fetch).

/** One Uint8Array holding `chunks` (Uint8Arrays) in order. */
function concatBytes(chunks) {
  if (chunks.length === 1) return chunks[0];
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

module.exports = { concatBytes };
