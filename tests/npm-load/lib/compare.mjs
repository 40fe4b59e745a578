// Classifies one package from its Node and Shoal answers.
//
//   pass              same export shape, and the same smoke result when there is a smoke call
//   fail-under-node   it does not load (or its smoke call throws) under real Node: excluded
//                     from the pass rate, since Shoal cannot be expected to do better
//   build-failure     `shoal build` refused the Function (the build's message)
//   load-failure      the Function did not answer: loading the package threw, or the
//                     module did not evaluate (Shoal's answer)
//   shape-mismatch    keys or their types differ (which ones)
//   smoke-mismatch    the smoke call's results differ (both values)

const MAX_CAUSE = 400;

// Shoal's npm cache path in build messages: `node_modules/x/...` says the same.
const CACHED_INSTALL = /(?:\.\.\/)*[^\s'"]*?\/npm\/[0-9a-f]{64}\/(?=node_modules\/)/g;

function oneLine(text, max = MAX_CAUSE) {
  const line = String(text).replace(CACHED_INSTALL, '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function keyDifferences(prefix, node, shoal) {
  const diffs = [];
  if (node.type !== shoal.type) diffs.push(`${prefix || 'export'} is ${node.type} under Node, ${shoal.type} under Shoal`);
  if ('length' in node || 'length' in shoal) {
    if (node.length !== shoal.length) diffs.push(`${prefix || 'export'} length ${node.length} vs ${shoal.length}`);
  }
  const nodeKeys = node.keys || {};
  const shoalKeys = shoal.keys || {};
  for (const key of Object.keys(nodeKeys)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (!(key in shoalKeys)) diffs.push(`${name} missing`);
    else if (nodeKeys[key] !== shoalKeys[key]) diffs.push(`${name}: ${nodeKeys[key]} vs ${shoalKeys[key]}`);
  }
  for (const key of Object.keys(shoalKeys)) {
    if (!(key in nodeKeys)) diffs.push(`${prefix ? `${prefix}.${key}` : key} extra under Shoal (${shoalKeys[key]})`);
  }
  return diffs;
}

/** Differences between two export shapes, one string each ([] when equal). */
export function shapeDifferences(node, shoal) {
  const diffs = keyDifferences('', node, shoal);
  if (node.default || shoal.default) {
    diffs.push(...keyDifferences('default', node.default || { type: 'absent' }, shoal.default || { type: 'absent' }));
  }
  return diffs;
}

/** The outcome for one package: { status, cause, ...details }. */
export function classify(pkg, hasSmoke, node, shoal) {
  if (node.status !== 'ok') return { status: 'fail-under-node', cause: oneLine(node.error) };
  if (node.body.loadError) return { status: 'fail-under-node', cause: oneLine(node.body.loadError) };
  if (hasSmoke && node.body.smoke && node.body.smoke.$threw) {
    return { status: 'fail-under-node', cause: oneLine(`smoke call throws: ${node.body.smoke.$threw}`) };
  }
  if (shoal.status === 'build-failure') return { status: 'build-failure', cause: oneLine(shoal.text), message: shoal.text.replace(CACHED_INSTALL, '') };
  if (shoal.status !== 'ok') return { status: 'load-failure', cause: oneLine(`HTTP ${shoal.http}: ${shoal.text}`) };
  if (shoal.body.loadError) return { status: 'load-failure', cause: oneLine(shoal.body.loadError), stack: shoal.body.loadStack };
  const diffs = shapeDifferences(node.body.shape, shoal.body.shape);
  if (diffs.length > 0) {
    return { status: 'shape-mismatch', cause: oneLine(diffs.join('; ')), differences: diffs };
  }
  if (hasSmoke) {
    const [a, b] = [JSON.stringify(node.body.smoke), JSON.stringify(shoal.body.smoke)];
    if (a !== b) {
      return {
        status: 'smoke-mismatch',
        cause: oneLine(`Node ${oneLine(a, 180)} / Shoal ${oneLine(b, 180)}`),
        node: node.body.smoke,
        shoal: shoal.body.smoke,
        ...(shoal.body.smokeStack ? { stack: shoal.body.smokeStack } : {}),
      };
    }
  }
  return { status: 'pass' };
}
