import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.js';

// An attacker who can get a report into flakeboard (any CI job that uploads) controls the DOM
// snapshots inside its traces. The viewer is served from flakeboard's own origin, where the UI
// keeps its session token: a snapshot that ran script there could take the session. This test
// puts every usual way of running script into every snapshot of a real trace and watches for it.
const EVIDENCE = fileURLToPath(new URL('../fixtures/reports/evidence/', import.meta.url));
const TRACE = 'output/checkout-applies-a-discount-code/trace.zip';

/**
 * Script that leaves three marks if it runs: the top window's name, localStorage, and a hit on the
 * recorder. It ends in `void 0` so that, as a `javascript:` URL, it does not replace the page (and
 * cancel its own request) with its value.
 */
const payload = (recorder: string, via: string) =>
  `try{window.top.name='pwned-${via}'}catch(e){};try{localStorage.setItem('pwned','${via}')}catch(e){};` +
  `try{fetch('${recorder}/ran?${via}',{mode:'no-cors'})}catch(e){};try{new Image().src='${recorder}/ran-img?${via}'}catch(e){};void 0`;

/** The hostile page as Playwright's snapshot node tree: [tag, attributes, ...children]. */
function hostileTree(recorder: string): unknown[] {
  const p = (via: string) => payload(recorder, via);
  return [
    'HTML', {},
    ['HEAD', {},
      ['BASE', { href: `${recorder}/base/` }],
      ['META', { 'http-equiv': 'refresh', content: `0;url=javascript:${p('meta')}` }],
      ['STYLE', {}, `@import url('${recorder}/import.css');`],
      ['SCRIPT', {}, p('script')],
    ],
    ['BODY', { onload: p('body-onload') },
      ['H1', {}, 'Checkout'],
      ['IMG', { src: 'x-missing.png', onerror: p('img-onerror') }],
      ['svg', { xmlns: 'http://www.w3.org/2000/svg', onload: p('svg-onload') }, ['script', {}, p('svg-script')]],
      ['IFRAME', { srcdoc: `<script>${p('srcdoc')}</script>` }],
      ['IFRAME', { src: `javascript:${p('iframe-src')}` }],
      ['A', { id: 'jslink', href: `javascript:${p('link')}` }, 'Apply the code'],
      ['OBJECT', { data: `data:text/html,<script>${p('object')}</script>` }],
      ['EMBED', { src: `data:text/html,<script>${p('embed')}</script>` }],
      ['FORM', { action: `javascript:${p('form')}` }, ['BUTTON', { id: 'jsbutton', type: 'submit' }, 'Submit']],
    ],
  ];
}

/** The same attack as a plain HTML page, for the control. */
function hostileHtml(recorder: string): string {
  const p = (via: string) => payload(recorder, via).replace(/"/g, '&quot;');
  return `<!doctype html><html><head><style>@import url('${recorder}/import.css');</style><script>${payload(recorder, 'script')}</script></head>` +
    `<body><img src="x-missing.png" onerror="${p('img-onerror')}"><a id="jslink" href="javascript:${p('link')}">Apply the code</a></body></html>`;
}

/** Every frame-snapshot of every trace file in the zip replaced by the hostile page. */
function craftTrace(original: Uint8Array, recorder: string): Uint8Array {
  const files = unzipSync(original);
  let replaced = 0;
  for (const [name, bytes] of Object.entries(files)) {
    if (!name.endsWith('.trace')) continue;
    const lines = strFromU8(bytes).split('\n').map((line) => {
      if (!line.startsWith('{"type":"frame-snapshot"')) return line;
      const event = JSON.parse(line) as { snapshot: { html: unknown } };
      event.snapshot.html = hostileTree(recorder);
      replaced++;
      return JSON.stringify(event);
    });
    files[name] = strToU8(lines.join('\n'));
  }
  if (replaced === 0) throw new Error('the trace had no snapshots to replace');
  return zipSync(files);
}

/** A second origin: serves the control page and records every request made to it. */
async function startRecorder(): Promise<{ url: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  let url = '';
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/control.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(hostileHtml(url));
      return;
    }
    res.writeHead(200, { 'content-type': req.url?.endsWith('.css') ? 'text/css' : 'text/plain' }).end('');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits, server };
}

/** What a payload would have left behind in a page's origin. */
async function marks(page: Page): Promise<{ name: string; stored: string | null }> {
  return page.evaluate(() => ({ name: window.name, stored: localStorage.getItem('pwned') }));
}

test.describe('a crafted trace in the trace viewer', () => {
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  let dir: string;
  test.beforeEach(async () => {
    recorder = await startRecorder();
    dir = mkdtempSync(join(tmpdir(), 'flakeboard-e2e-attack-'));
  });
  test.afterEach(async () => {
    recorder.server.closeAllConnections();
    await new Promise((resolve) => recorder.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  test('the control: the same payload in a plain page on another origin does run, so the detector works', async ({ page }) => {
    await page.goto(`${recorder.url}/control.html`);
    await expect.poll(() => marks(page)).toEqual({ name: 'pwned-img-onerror', stored: 'img-onerror' });
    await page.locator('#jslink').click();
    await expect.poll(() => recorder.hits.filter((h) => h.startsWith('/ran'))).toEqual(expect.arrayContaining(['/ran?script', '/ran?img-onerror', '/ran?link']));
  });

  test('script in a snapshot does not run in flakeboard’s origin, stepping through every action', async ({ page, flakeboard, context }) => {
    const report = join(dir, 'evidence');
    cpSync(EVIDENCE, report, { recursive: true });
    const original = readFileSync(join(report, TRACE));
    writeFileSync(join(report, TRACE), craftTrace(original, recorder.url));
    const server = await flakeboard.start({ template: 'empty', imports: [{ paths: [join(report, 'report.json')], approve: true }] });
    await signIn(page, server, { hash: '/upload' });
    const token = await page.evaluate(() => JSON.stringify(localStorage));
    expect(token).not.toBe('{}');
    await page.getByTestId('recent-upload').first().click();
    await page.getByTestId('test-row').filter({ hasText: 'applies a discount code' }).getByTestId('evidence-button').click();
    const dialog = page.getByRole('dialog', { name: 'applies a discount code' });
    const [viewer] = await Promise.all([context.waitForEvent('page'), dialog.getByTestId('open-trace').first().click()]);
    await viewer.waitForLoadState();
    expect(new URL(viewer.url()).origin).toBe(new URL(server.url).origin);

    // Each action's snapshot is the hostile page: step through them all, and click its links.
    await expect(viewer.getByText('Fill "SAVE1O"')).toBeVisible();
    const actions = viewer.locator('.action-title');
    const count = await actions.count();
    expect(count).toBeGreaterThan(2);
    let shown = 0;
    for (let i = 0; i < count; i++) {
      await actions.nth(i).click();
      const snapshot = viewer.frameLocator('iframe.snapshot-visible[name=snapshot]');
      // The hostile link is in no real snapshot: seeing it means the crafted page was rendered.
      const link = snapshot.locator('#jslink');
      if (!(await link.isVisible({ timeout: 3_000 }).catch(() => false))) continue;
      shown++;
      await link.click({ timeout: 3_000 });
      await snapshot.locator('#jsbutton').click({ timeout: 3_000 }).catch(() => {});
    }
    // The hostile page was rendered, so every way in was tried.
    expect(shown).toBeGreaterThan(0);
    await viewer.waitForTimeout(1_000);

    expect(await marks(viewer)).toEqual({ name: '', stored: null });
    expect(await marks(page)).toEqual({ name: '', stored: null });
    for (const frame of viewer.frames()) {
      const name = await frame.evaluate(() => window.name).catch(() => '');
      expect(name.startsWith('pwned')).toBe(false);
    }
    expect(recorder.hits.filter((h) => h.startsWith('/ran'))).toEqual([]);
    // Not script, but a snapshot should not make the viewer fetch from another origin either.
    expect(recorder.hits).toEqual([]);
  });
});
