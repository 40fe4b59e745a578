// A Kyma-like runner for one generated Function under real Node: imports handler.js as
// Kyma's nodejs runtime does (ESM import, which takes CommonJS and ESM handlers), calls
// main(event, context) once, and prints one JSON line:
//   {"status":"ok","body":<what main returned>} or {"status":"load-error"|"error","error":"..."}
//
//   node node-runner.mjs <function-dir>
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = path.resolve(process.argv[2]);

function print(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

// Kyma keeps a pod up when a Function's own callbacks throw; the answer is what counts.
process.on('uncaughtException', (error) => console.error(`Caught exception: ${error}`));
process.on('unhandledRejection', (error) => console.error(`Unhandled rejection: ${error}`));

let mod;
try {
  mod = await import(pathToFileURL(path.join(dir, 'handler.js')).href);
} catch (error) {
  print({ status: 'load-error', error: `${error.name}: ${error.message}` });
}
if (mod) {
  const main = typeof mod.main === 'function' ? mod.main : mod.default && mod.default.main;
  try {
    // The response body is the JSON Kyma would send: serialised, then parsed back.
    const body = JSON.parse(JSON.stringify(await main({ data: null, extensions: {} }, {})));
    print({ status: 'ok', body });
  } catch (error) {
    print({ status: 'error', error: `${error.name}: ${error.message}` });
  }
}
