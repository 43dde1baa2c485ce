import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attachmentRoots, findAttachmentFile, type FolderCache } from './report-files.js';

const base = mkdtempSync(join(tmpdir(), 'report-files-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('findAttachmentFile', () => {
  const reportDir = join(base, 'moved');
  const report = join(reportDir, 'report.json');
  mkdirSync(join(reportDir, 'test-results', 'cart-adds-chromium'), { recursive: true });
  writeFileSync(report, '{}');
  writeFileSync(join(reportDir, 'test-results', 'cart-adds-chromium', 'trace.zip'), 'zip');
  mkdirSync(join(base, 'secret'));
  writeFileSync(join(base, 'secret', 'key'), 'k');
  symlinkSync(join(base, 'secret', 'key'), join(reportDir, 'test-results', 'cart-adds-chromium', 'link.png'));
  const roots = attachmentRoots(report, null);

  it("finds another machine's path under the report's folder, sharing the folder lookups between attachments", () => {
    const folders: FolderCache = new Map();
    const found = findAttachmentFile('/home/runner/work/shop/test-results/cart-adds-chromium/trace.zip', report, roots, folders);
    expect(found).toEqual({ path: join(reportDir, 'test-results', 'cart-adds-chromium', 'trace.zip'), size: 3 });
    // The first folders of the moved path were asked once and remembered (by name) as absent; the one that exists as present.
    expect(folders.get('home')).toBe(false);
    expect(folders.get('test-results')).toBe(true);
    const again = findAttachmentFile('/home/runner/work/shop/test-results/cart-adds-chromium/missing.png', report, roots, folders);
    expect(again).toEqual({ problem: 'missing' });
  });

  it('a Windows path is looked for by its last folders too', () => {
    expect(findAttachmentFile('C:\\ci\\test-results\\cart-adds-chromium\\trace.zip', report, roots)).toMatchObject({ size: 3 });
  });

  it('a link out of the report folder is outside, whatever its name', () => {
    expect(findAttachmentFile(join(reportDir, 'test-results', 'cart-adds-chromium', 'link.png'), report, roots)).toEqual({ problem: 'outside' });
    expect(findAttachmentFile(join(base, 'secret', 'key'), report, roots)).toEqual({ problem: 'outside' });
  });

  it('a path with a NUL is refused without touching the disk', () => {
    expect(findAttachmentFile('test-results/a\u0000b', report, roots)).toEqual({ problem: 'outside' });
  });
});
