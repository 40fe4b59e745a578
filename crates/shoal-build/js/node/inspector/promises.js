'use strict';
// node:inspector/promises: node:inspector with a Session whose post()
// returns a Promise.
const inspector = require('../inspector.js');

class Session extends inspector.Session {
  post(method, params) {
    return new Promise((resolve, reject) => {
      super.post(method, params, (err, result) => (err ? reject(err) : resolve(result)));
    });
  }
}

module.exports = { ...inspector, Session };
