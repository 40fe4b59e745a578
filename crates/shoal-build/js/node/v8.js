'use strict';
// node:v8 for Shoal Functions. The engine is QuickJS, not V8: the value
// serializer is V8's format (internal/v8/serdes.js), so v8.serialize() and
// deserialize() interoperate with Node's; the heap figures are the
// engine's estimate for a Function's sandbox; flags, coverage and promise
// hooks of V8 have nothing to act on; heap snapshots and GC profiles
// cannot be taken.
const serdes = require('./internal/v8/serdes.js');
const { invalidArgType, nodeError } = require('./internal/errors.js');
const { notImplemented } = require('./internal/unsupported.js');

const NOT_V8 = "Shoal's engine is QuickJS, not V8";
const MiB = 1024 * 1024;

// QuickJS does not report its heap to a Function; these are the figures of
// a small Function's sandbox, within the node's per-sandbox limit.
function getHeapStatistics() {
  return {
    total_heap_size: 8 * MiB,
    total_heap_size_executable: 0,
    total_physical_size: 8 * MiB,
    total_available_size: 120 * MiB,
    used_heap_size: 4 * MiB,
    heap_size_limit: 128 * MiB,
    malloced_memory: 0,
    peak_malloced_memory: 0,
    does_zap_garbage: 0,
    number_of_native_contexts: 1,
    number_of_detached_contexts: 0,
    total_global_handles_size: 0,
    used_global_handles_size: 0,
    external_memory: 0,
  };
}

function getHeapCodeStatistics() {
  return { code_and_metadata_size: 0, bytecode_and_metadata_size: 0, external_script_source_size: 0, cpu_profiler_metadata_size: 0 };
}

function getCppHeapStatistics(type = 'detailed') {
  if (type !== 'brief' && type !== 'detailed') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'type' must be one of: 'brief', 'detailed'. Received '${type}'`);
  }
  return { committed_size_bytes: 0, resident_size_bytes: 0, used_size_bytes: 0, space_statistics: [], type_names: [], detail_level: type };
}

// A tag for compiled code caches: one per engine and Node line.
function cachedDataVersionTag() {
  const text = `shoal-quickjs-${typeof process !== 'undefined' ? process.version : ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

function setFlagsFromString(flags) {
  if (typeof flags !== 'string') throw invalidArgType('flags', 'string', flags);
  // V8's flags tune V8; the engine has none of them, as V8 ignores flags it does not know.
}

function isStringOneByteRepresentation(content) {
  if (typeof content !== 'string') throw invalidArgType('content', 'string', content);
  for (let i = 0; i < content.length; i++) if (content.charCodeAt(i) > 0xff) return false;
  return true;
}

const notV8 = (name) => () => {
  throw notImplemented(`v8.${name}()`, NOT_V8);
};

class GCProfiler {
  start() {
    throw notImplemented('v8.GCProfiler#start()', NOT_V8);
  }

  // Not started, so nothing to return (as Node's).
  stop() {
    return undefined;
  }
}

const notBuildingSnapshot = () => {
  throw nodeError(Error, 'ERR_NOT_BUILDING_SNAPSHOT', 'Operation cannot be invoked when not building startup snapshot');
};

module.exports = {
  cachedDataVersionTag,
  getHeapSnapshot: notV8('getHeapSnapshot'),
  getHeapStatistics,
  getHeapSpaceStatistics: () => [],
  getHeapCodeStatistics,
  getCppHeapStatistics,
  setFlagsFromString,
  Serializer: serdes.Serializer,
  Deserializer: serdes.Deserializer,
  DefaultSerializer: serdes.DefaultSerializer,
  DefaultDeserializer: serdes.DefaultDeserializer,
  deserialize: serdes.deserialize,
  // Without NODE_V8_COVERAGE, Node's do nothing either.
  takeCoverage() {},
  stopCoverage() {},
  serialize: serdes.serialize,
  writeHeapSnapshot: notV8('writeHeapSnapshot'),
  promiseHooks: {
    onInit: notV8('promiseHooks.onInit'),
    onSettled: notV8('promiseHooks.onSettled'),
    onBefore: notV8('promiseHooks.onBefore'),
    onAfter: notV8('promiseHooks.onAfter'),
    createHook: notV8('promiseHooks.createHook'),
  },
  queryObjects: notV8('queryObjects'),
  startupSnapshot: {
    addSerializeCallback: notBuildingSnapshot,
    addDeserializeCallback: notBuildingSnapshot,
    setDeserializeMainFunction: notBuildingSnapshot,
    // Node answers 0 here (a flag it reads from a typed array), not false.
    isBuildingSnapshot: () => 0,
  },
  setHeapSnapshotNearHeapLimit(limit) {
    if (typeof limit !== 'number') throw invalidArgType('limit', 'number', limit);
  },
  GCProfiler,
  isStringOneByteRepresentation,
};
