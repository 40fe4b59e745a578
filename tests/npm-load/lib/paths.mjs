// Where the load test keeps what it installs and generates: all under target/npm-load/,
// never inside the committed folder.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEST_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const REPO_ROOT = path.resolve(TEST_DIR, '..', '..');
export const WORK_DIR = path.join(REPO_ROOT, 'target', 'npm-load');
/** Kyma's default runtime is nodejs24: the reference Node is that line's official build. */
export const REFERENCE_NODE = path.join(REPO_ROOT, '.ci', 'node', '24', 'bin', 'node');
export const PACKAGES_JSON = path.join(TEST_DIR, 'packages.json');
