// Ships Playwright's trace viewer (playwright-core's lib/vite/traceViewer, Apache-2.0) in
// dist/trace-viewer, where `serve` finds it beside the bundle: a user's install of flakeboard
// needs no playwright-core. Its licence, NOTICE and third-party notices go with it, and the
// Playwright version it came from (a trace from a newer Playwright may not open in it).
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const core = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
const source = join(core, 'lib', 'vite', 'traceViewer');
const target = join(root, 'dist', 'trace-viewer');
if (!existsSync(join(source, 'index.html'))) throw new Error(`Playwright's trace viewer is not at ${source}: is @playwright/test installed?`);
rmSync(target, { recursive: true, force: true });
cpSync(source, target, { recursive: true });
for (const notice of ['LICENSE', 'NOTICE', 'ThirdPartyNotices.txt']) cpSync(join(core, notice), join(target, notice));
const { version } = JSON.parse(readFileSync(join(core, 'package.json'), 'utf8'));
writeFileSync(join(target, 'viewer.json'), `${JSON.stringify({ playwrightVersion: version })}\n`);
console.log(`Copied Playwright ${version}'s trace viewer to dist/trace-viewer`);
