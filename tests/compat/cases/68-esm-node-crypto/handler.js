// ESM with a default import of node:crypto and named imports from node modules.
import crypto from 'node:crypto';
import { createHmac, randomUUID } from 'crypto';
import { readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import * as util from 'node:util';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

export function main(event, context) {
  const payload = JSON.stringify(event.data ?? { ping: true });
  const signature = createHmac('sha256', process.env.SIGNING_SECRET).update(payload).digest('base64url');
  return {
    packageName: pkg.name,
    moduleType: pkg.type,
    digest: crypto.createHash('sha256').update(payload).digest('hex'),
    signature,
    uuidShape: /^[0-9a-f-]{36}$/.test(randomUUID()),
    emitterIsClass: typeof EventEmitter === 'function',
    formatted: util.format('%s:%d', context['function-name'], 1),
    requireIsUndefined: typeof require === 'undefined',
    thisAtTopLevel: typeof this,
  };
}
