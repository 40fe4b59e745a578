// node:wasi: Shoal's engine cannot instantiate WebAssembly modules.
import { refusal } from './harness/cases.mjs';

refusal('wasi', 'new M.wasi.WASI({ version: "preview1" })', 'ERR_METHOD_NOT_IMPLEMENTED', "new wasi.WASI() is not available in Shoal: Shoal's engine cannot instantiate WebAssembly modules");
