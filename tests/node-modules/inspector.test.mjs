// node:inspector and node:inspector/promises without an inspector.
import { diff, refusal } from './harness/cases.mjs';

diff('inspector without an inspector', `
  const i = M.inspector;
  const s = new i.Session();
  const out = [i.url(), i.close(), s instanceof M.events];
  for (const f of [() => s.post('Runtime.enable'), () => i.waitForDebugger(), () => s.post(5)]) {
    try { f(); out.push('ok'); } catch (e) { out.push([e.name, e.code, e.message]); }
  }
  return out;`);

refusal('inspector', 'M.inspector.open()', 'ERR_INSPECTOR_NOT_AVAILABLE', 'Inspector is not available');
