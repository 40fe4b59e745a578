// A GitHub webhook receiver written like Kyma's nodejs26 examples: `import` and
// `export function main(req, res)` in handler.js, with no package.json saying
// "type": "module" (Node detects the ES module syntax by itself).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getFunctionName, getNamespace } from 'sdk';

const secret = process.env.WEBHOOK_SECRET;

function signatureOk(req) {
  const header = req.get('x-hub-signature-256') || '';
  // body-parser has already parsed the JSON; the compact form is what the sender signed.
  const expected = 'sha256=' + createHmac('sha256', secret).update(JSON.stringify(req.body)).digest('hex');
  const a = Buffer.from(header);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function main(req, res) {
  if (req.method !== 'POST') {
    res.set('Allow', 'POST').status(405).send('webhooks are POSTed');
    return;
  }
  if (!req.is('application/json')) {
    res.status(415).json({ error: 'expected application/json', got: req.get('content-type') ?? null });
    return;
  }
  if (!signatureOk(req)) {
    res.status(401).json({ error: 'bad signature' });
    return;
  }
  const event = req.get('x-github-event');
  const delivery = req.get('x-github-delivery');
  console.log(`${getNamespace()}/${getFunctionName()}: ${event} ${delivery}`);
  switch (event) {
    case 'ping':
      res.send('pong');
      return;
    case 'push': {
      const { ref, commits = [], repository } = req.body;
      res.json({
        delivery,
        repository: repository.full_name,
        branch: ref.replace('refs/heads/', ''),
        commits: commits.length,
        authors: [...new Set(commits.map((c) => c.author.name))].sort(),
        files: commits.flatMap((c) => [...c.added, ...c.modified]).sort(),
      });
      return;
    }
    default:
      res.sendStatus(202);
  }
}
