// node:sqlite: Shoal has no SQLite.
import { refusal } from './harness/cases.mjs';

refusal('sqlite', 'new M["node:sqlite"].DatabaseSync(":memory:")', 'ERR_METHOD_NOT_IMPLEMENTED', 'new sqlite.DatabaseSync() is not available in Shoal: Shoal has no SQLite; keep data in a database service the Function calls');
refusal('sqlite', 'new M["node:sqlite"].StatementSync()', 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
