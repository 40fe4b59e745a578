// A typo'd export: `main` is not a function, so every request fails.
const handler = {
  process(event) {
    return { ok: true };
  },
};

module.exports = { main: handler.main, handler };
