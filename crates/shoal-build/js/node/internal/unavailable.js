'use strict';
// Modules that popular packages require at load time but that a Function
// cannot use (raw sockets, TLS servers, HTTP/2 sessions): they load, and
// each function throws, naming itself, when called.

function unavailable(module, name) {
  return function notAvailable() {
    const err = new Error(
      `${module}.${name} is not available in a Shoal Function: outbound traffic goes through fetch, http and https, performed by the node`,
    );
    err.code = 'ERR_SHOAL_NOT_AVAILABLE';
    throw err;
  };
}

/** An object whose listed functions throw when called. */
function unavailableModule(module, names, extra = {}) {
  const out = { ...extra };
  for (const name of names) out[name] = unavailable(module, name);
  return out;
}

module.exports = { unavailable, unavailableModule };
