// node:cluster: a Function runs as the primary; it cannot fork.
import { diff, refusal } from './harness/cases.mjs';

diff('cluster in the primary', `
  const c = M.cluster;
  const log = [c.isPrimary, c.isMaster, c.isWorker, c.workers, c.settings, c.SCHED_NONE, c.SCHED_RR, c.schedulingPolicy, c.Worker.prototype instanceof M.events];
  return new Promise((resolve) => c.disconnect(() => resolve(log)));`);

refusal('cluster', 'M.cluster.fork()', 'ERR_METHOD_NOT_IMPLEMENTED', 'cluster.fork() is not available in Shoal: a Function runs as one process; Shoal starts more sandboxes as requests need them');
