// Function names for packages: DNS-1035 labels (lower-case letters, digits and '-',
// starting with a letter, ending with one or a digit, at most 63 characters), derived
// from the package name and unique within the list.
import { createHash } from 'node:crypto';

const MAX_LABEL = 63;

function shortHash(text) {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}

/** A label for one package name; `@scope/name` keeps the scope apart with "--". */
export function labelFor(name) {
  let label = name
    .toLowerCase()
    .replace(/^@([^/]+)\//, '$1--')
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!/^[a-z]/.test(label)) label = `p-${label}`;
  if (label.length > MAX_LABEL) label = `${label.slice(0, MAX_LABEL - 7).replace(/-+$/, '')}-${shortHash(name)}`;
  return label;
}

/** Labels for a list of package names, a hash suffix where two would collide. */
export function uniqueLabels(names) {
  const byLabel = new Map();
  for (const name of names) {
    const label = labelFor(name);
    byLabel.set(label, [...(byLabel.get(label) || []), name]);
  }
  const out = new Map();
  for (const [label, owners] of byLabel) {
    for (const name of owners) {
      out.set(name, owners.length === 1 ? label : `${label.slice(0, MAX_LABEL - 7).replace(/-+$/, '')}-${shortHash(name)}`);
    }
  }
  return out;
}
