'use strict';
// The engine's native half of Intl (`__shoal_intl`, crates/shoal-engine/
// plugin/src/intl): locale data for every locale Node's full ICU has, the
// IANA time zones, and the formatters. Looked up on first use, so that
// loading this module costs nothing where no Intl object is made.

let native;

function intlNative() {
  if (native === undefined) {
    native = globalThis.__shoal_intl;
    if (native === undefined) throw new Error('Intl needs the Shoal engine (__shoal_intl is missing)');
  }
  return native;
}

// Parts come back flat, [type, value, type, value, ...] (with a source
// after each value for ranges): one array crosses the boundary, not one
// object per part.
function partsFromFlat(flat, withSource) {
  const parts = [];
  const step = withSource ? 3 : 2;
  for (let i = 0; i < flat.length; i += step) {
    const part = { type: flat[i], value: flat[i + 1] };
    if (withSource) part.source = flat[i + 2];
    parts.push(part);
  }
  return parts;
}

function joinFlat(flat, withSource) {
  let out = '';
  for (let i = 1; i < flat.length; i += withSource ? 3 : 2) out += flat[i];
  return out;
}

module.exports = { intlNative, partsFromFlat, joinFlat };
