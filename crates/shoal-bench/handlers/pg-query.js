// One PostgreSQL query per request through a pool kept at module level, as
// a Function that reads or updates a database does: the same handler under
// Shoal and under the Node.js baseline.
const { Pool } = require("pg");

const pool = new Pool({ max: 10 });

module.exports = {
  async main() {
    const { rows } = await pool.query("SELECT $1::int + 1 AS answer", [41]);
    return rows[0];
  },
};
