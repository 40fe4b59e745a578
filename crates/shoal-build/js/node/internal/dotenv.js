'use strict';
// The .env format as Node reads it (src/node_dotenv.cc, Dotenv::ParseContent):
// util.parseEnv() and process.loadEnvFile().
const { invalidArgType } = require('./errors.js');

const trimSpaces = (s) => s.replace(/^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g, '');

function parseEnv(content) {
  if (typeof content !== 'string') throw invalidArgType('content', 'string', content);
  const store = Object.create(null);
  let rest = trimSpaces(content.replace(/\r/g, ''));
  const dropLine = (from = 0) => {
    const newline = rest.indexOf('\n', from);
    rest = newline < 0 ? '' : rest.slice(newline + 1);
  };
  while (rest.length > 0) {
    if (rest[0] === '\n' || rest[0] === '#') {
      dropLine();
      continue;
    }
    const equals = rest.search(/[=\n]/);
    if (equals < 0 || rest[equals] === '\n') {
      if (equals < 0) break;
      rest = trimSpaces(rest.slice(equals + 1));
      continue;
    }
    let key = trimSpaces(rest.slice(0, equals));
    rest = rest.slice(equals + 1);
    if (rest.length === 0 || rest[0] === '\n') {
      store[key] = '';
      continue;
    }
    rest = trimSpaces(rest);
    if (key.length === 0) {
      const newline = rest.indexOf('\n');
      if (newline < 0) break;
      rest = trimSpaces(rest.slice(newline + 1));
      continue;
    }
    if (key.startsWith('export ')) key = trimSpaces(key.slice(7));
    if (rest.length === 0) {
      store[key] = '';
      break;
    }
    const quote = rest[0];
    if (quote === '"') {
      const closing = rest.indexOf('"', 1);
      if (closing >= 0) {
        store[key] = rest.slice(1, closing).replace(/\\n/g, '\n');
        dropLine(closing + 1);
        continue;
      }
    }
    if (quote === "'" || quote === '"' || quote === '`') {
      const closing = rest.indexOf(quote, 1);
      if (closing < 0) {
        const newline = rest.indexOf('\n');
        if (newline < 0) {
          store[key] = rest;
          break;
        }
        store[key] = rest.slice(0, newline);
        rest = rest.slice(newline);
      } else {
        store[key] = rest.slice(1, closing);
        dropLine(closing + 1);
      }
    } else {
      const newline = rest.indexOf('\n');
      let value = newline < 0 ? rest : rest.slice(0, newline);
      const hash = value.indexOf('#');
      if (hash >= 0) value = value.slice(0, hash);
      store[key] = trimSpaces(value);
      rest = newline < 0 ? '' : rest.slice(newline + 1);
    }
    rest = trimSpaces(rest);
  }
  // Node hands back a plain object.
  return Object.assign({}, store);
}

module.exports = { parseEnv };
