'use strict';
// node:trace_events for Shoal Functions: the engine records no trace
// events. Nothing is enabled (getEnabledCategories() is undefined, as in a
// Node process without --trace-event-categories); a Tracing object can be
// made, and enabling it throws, since there is nothing to record with.
const { invalidArgType, nodeError } = require('./internal/errors.js');
const { notImplemented } = require('./internal/unsupported.js');

class Tracing {
  #categories;

  constructor(categories) {
    this.#categories = categories;
  }

  enable() {
    throw notImplemented('trace_events.Tracing#enable()', "Shoal's engine records no trace events");
  }

  // Never enabled, so there is nothing to disable.
  disable() {}

  get enabled() {
    return false;
  }

  get categories() {
    return this.#categories.join(',');
  }

  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    return `Tracing ${inspect({ enabled: this.enabled, categories: this.categories }, options)}`;
  }
}

function createTracing(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw invalidArgType('options', 'object', options);
  const { categories } = options;
  if (!Array.isArray(categories)) throw invalidArgType('options.categories', 'Array', categories);
  categories.forEach((category, i) => {
    if (typeof category !== 'string') throw invalidArgType(`options.categories[${i}]`, 'string', category);
  });
  if (categories.length <= 0) {
    throw nodeError(TypeError, 'ERR_TRACE_EVENTS_CATEGORY_REQUIRED', 'At least one category is required');
  }
  return new Tracing(categories);
}

module.exports = {
  createTracing,
  getEnabledCategories: () => undefined,
};
