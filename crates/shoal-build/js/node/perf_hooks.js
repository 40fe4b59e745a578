'use strict';
// node:perf_hooks for Shoal Functions: the engine's performance.now() with
// the User Timing marks and measures Node.js offers. There is no event loop
// to monitor, so monitorEventLoopDelay and PerformanceObserver are minimal.

const now = () => (typeof globalThis.performance !== 'undefined' && globalThis.performance.now
  ? globalThis.performance.now()
  : Date.now() - startDate);
const startDate = Date.now();
const timeOrigin = Date.now() - now();

class PerformanceEntry {
  constructor(name, entryType, startTime, duration, detail) {
    this.name = name;
    this.entryType = entryType;
    this.startTime = startTime;
    this.duration = duration;
    if (detail !== undefined) this.detail = detail;
  }
  toJSON() {
    return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration, detail: this.detail };
  }
}
class PerformanceMark extends PerformanceEntry {}
class PerformanceMeasure extends PerformanceEntry {}

const entries = [];

function mark(name, options = {}) {
  const startTime = options.startTime !== undefined ? options.startTime : now();
  const entry = new PerformanceMark(String(name), 'mark', startTime, 0, options.detail === undefined ? null : options.detail);
  entries.push(entry);
  return entry;
}

function markTime(ref, fallback) {
  if (ref === undefined) return fallback;
  if (typeof ref === 'number') return ref;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].entryType === 'mark' && entries[i].name === ref) return entries[i].startTime;
  }
  const err = new SyntaxError(`The "${ref}" performance mark has not been set`);
  err.code = 'ERR_INVALID_PERFORMANCE_MARK';
  throw err;
}

function measure(name, startOrOptions, endMark) {
  let start;
  let end;
  let detail = null;
  if (startOrOptions !== null && typeof startOrOptions === 'object') {
    start = markTime(startOrOptions.start, 0);
    end = startOrOptions.duration !== undefined ? start + startOrOptions.duration : markTime(startOrOptions.end, now());
    if (startOrOptions.detail !== undefined) detail = startOrOptions.detail;
  } else {
    start = markTime(startOrOptions, 0);
    end = markTime(endMark, now());
  }
  const entry = new PerformanceMeasure(String(name), 'measure', start, end - start, detail);
  entries.push(entry);
  return entry;
}

function clear(type, name) {
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].entryType === type && (name === undefined || entries[i].name === name)) entries.splice(i, 1);
  }
}

const performance = {
  now,
  timeOrigin,
  mark,
  measure,
  clearMarks: (name) => clear('mark', name),
  clearMeasures: (name) => clear('measure', name),
  getEntries: () => entries.slice(),
  getEntriesByName: (name, type) => entries.filter((e) => e.name === name && (type === undefined || e.entryType === type)),
  getEntriesByType: (type) => entries.filter((e) => e.entryType === type),
  toJSON: () => ({ timeOrigin }),
  timerify: (fn) => fn,
  eventLoopUtilization: () => ({ idle: 0, active: 0, utilization: 0 }),
  nodeTiming: { name: 'node', entryType: 'node', startTime: 0, duration: now() },
};

class PerformanceObserver {
  constructor(callback) {
    this.callback = callback;
  }
  observe() {}
  disconnect() {}
  static get supportedEntryTypes() {
    return ['mark', 'measure'];
  }
}

// A histogram that never records: Shoal's engine has no event loop to sample.
function monitorEventLoopDelay() {
  return {
    enable: () => true,
    disable: () => true,
    reset() {},
    percentile: () => 0,
    min: 0,
    max: 0,
    mean: 0,
    stddev: 0,
    exceeds: 0,
    count: 0,
    percentiles: new Map(),
  };
}

module.exports = {
  performance,
  PerformanceEntry,
  PerformanceMark,
  PerformanceMeasure,
  PerformanceObserver,
  monitorEventLoopDelay,
  constants: {},
};
