// Form fields that name Object.prototype's own properties (a prototype
// pollution attempt from any caller): how the body parser treats them, and
// that nothing leaks into later requests of the same process or sandbox.
module.exports = {
  main(event) {
    const probe = {};
    return {
      body: event.data,
      bodyPrototypeIsObject: Object.getPrototypeOf(event.data || {}) === Object.prototype,
      polluted: ['isAdmin', 'x', 'role'].filter((k) => probe[k] !== undefined),
    };
  },
};
