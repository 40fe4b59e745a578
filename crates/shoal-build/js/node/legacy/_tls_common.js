'use strict';
// Node's lib/_tls_common.js exports. The node makes TLS connections, so a
// SecureContext here only carries the options to tls.connect().
const tls = require('../tls.js');

class SecureContext {
  constructor(secureProtocol, secureOptions, minVersion, maxVersion) {
    this.context = { secureProtocol, secureOptions, minVersion, maxVersion };
  }
}

// A peer certificate as Node gives it: issuers linked, infoAccess parsed.
function translatePeerCertificate(c) {
  if (!c) return null;
  if (c.issuerCertificate != null && c.issuerCertificate !== c) c.issuerCertificate = translatePeerCertificate(c.issuerCertificate);
  if (c.infoAccess != null) {
    const info = c.infoAccess;
    c.infoAccess = Object.create(null);
    info.replace(/([^\n:]*):([^\n]*)(?:\n|$)/g, (all, key, val) => {
      if (val.charCodeAt(0) === 0x22) val = JSON.parse(val);
      if (key in c.infoAccess) c.infoAccess[key].push(val);
      else c.infoAccess[key] = [val];
    });
  }
  return c;
}

module.exports = { SecureContext, createSecureContext: tls.createSecureContext, translatePeerCertificate };
