// node:repl: the writer and isValidSyntax; starting a REPL is refused.
import { diff, refusal } from './harness/cases.mjs';

diff('repl without a terminal', `
  const r = M.repl;
  return [r.isValidSyntax('let a = 1; await a'), r.isValidSyntax('{ a: 1 }'), r.isValidSyntax('let let'), r.writer({ a: [1, { b: 2 }] }),
    r.writer.options.showProxy, new r.Recoverable(new SyntaxError('x')) instanceof SyntaxError, r.REPL_MODE_SLOPPY.toString(), r.REPL_MODE_STRICT.toString(),
    r.REPLServer.prototype instanceof M.readline.Interface];`);

refusal('repl', 'M.repl.start()', 'ERR_METHOD_NOT_IMPLEMENTED', 'repl.start() is not available in Shoal: a Function has no terminal to read expressions from');
