// A greeting service as an ES module (nodejs26, "type": "module"), written the way Kyma's
// migration guide shows: named imports from 'sdk', `export async function main(req, res)`.
import { getFunctionName, getNamespace, getRuntime, getTimeout, getBodySizeLimit, getTracer } from 'sdk';
import sdk from 'sdk';
import * as kyma from 'sdk';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

// Top-level await: configuration prepared once, before the first request.
const config = await (async () => {
  await sleep(1);
  return {
    greeting: process.env.GREETING || 'Hello',
    locale: process.env.LOCALE || 'en-US',
    instance: createHash('sha256').update(`${getNamespace()}/${getFunctionName()}`).digest('hex').slice(0, 12),
  };
})();

export async function main(req, res) {
  if (req.path === '/meta') {
    res.json({
      functionName: getFunctionName(),
      namespace: getNamespace(),
      runtime: getRuntime(),
      timeout: getTimeout(),
      bodySizeLimit: getBodySizeLimit(),
      defaultImport: sdk.getFunctionName(),
      namespaceImport: kyma.getRuntime(),
      sameFunctions: sdk.getTimeout === getTimeout && kyma.getTimeout === getTimeout,
      hasTracer: typeof getTracer().startActiveSpan === 'function',
      config,
    });
    return;
  }
  const name = (req.body && req.body.name) || req.query.name || 'World';
  await sleep(2);
  const formatted = new Intl.DateTimeFormat(config.locale, { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 4, 6)));
  res.status(req.method === 'POST' ? 201 : 200).send(`${config.greeting}, ${name}! (${getFunctionName()} on ${getRuntime()}, ${formatted})`);
}
