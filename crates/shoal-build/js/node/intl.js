'use strict';
// Intl for Shoal Functions: every locale Node.js (full ICU) has and every
// IANA time zone. The ECMA-402 object model and option handling are in
// internal/intl/ (one file per constructor); the CLDR data, the time zone
// database and the formatters are native, in the engine
// (crates/shoal-engine/plugin/src/intl), shared by every sandbox rather
// than bundled into each Function.
//
// Requiring this module also installs the locale-sensitive methods of
// Number, BigInt, Date and String (toLocaleString, toLocaleDateString,
// toLocaleTimeString, localeCompare) on top of it.

const { Intl, install } = require('./internal/intl/index');

install();

module.exports = { Intl };
