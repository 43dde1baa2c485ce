import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands on its own: code and docs cite docs/ (which a clone has), never the
 * team's specification and design files (which it has not), and every relative link in docs/
 * and the README lands on a file, and on a heading of it when it names one.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Built from parts so that this file does not cite them itself.
const OUTSIDE_FILES = new RegExp(['SPEC', 'DESIGN'].map((name) => `\\b${name}\\.md\\b`).join('|'));

/** Lines of `text` that cite a file outside the repository, as "line: text". */
function outsideCitations(text: string): string[] {
  return text.split('\n').flatMap((line, i) => (OUTSIDE_FILES.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
}

/** Markdown with its fenced code blocks blanked: a `#` or a `[x](y)` inside one is code. */
function withoutCode(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

/** The anchors a renderer gives the headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, title] of withoutCode(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const base = title!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Relative links of a Markdown file that lead nowhere, as "target: why". */
function brokenLinks(markdown: string, fileDir: string, readTarget: (path: string) => string | null): string[] {
  const broken: string[] = [];
  for (const [, target] of withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto: and the like
    const [path, anchor] = target!.split('#', 2) as [string, string | undefined];
    const file = path === '' ? null : join(fileDir, decodeURIComponent(path));
    const text = file === null ? markdown : readTarget(file);
    if (text === null) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (anchor !== undefined && anchor !== '' && !headingAnchors(text).has(anchor)) broken.push(`${target}: no such heading`);
  }
  return broken;
}

/** A file's text; '' for a folder (it exists, has no headings); null when missing. */
function readTarget(path: string): string | null {
  if (!existsSync(path)) return null;
  return statSync(path).isDirectory() ? '' : readFileSync(path, 'utf8');
}

const sources = globSync(['**/*.{ts,tsx,mjs,md}'], { cwd: root, ignore: ['**/node_modules/**', '**/dist/**', 'test-results/**', 'bench/.data/**'] });
const markdownPages = ['README.md', ...globSync(['docs/*.md'], { cwd: root })];

describe('the repository stands on its own', () => {
  it('cites no file outside the repository in code, tests, scripts or docs', () => {
    expect(sources.length).toBeGreaterThan(300);
    const cited = sources.flatMap((file) => outsideCitations(readFileSync(join(root, file), 'utf8')).map((line) => `${file}:${line}`));
    expect(cited).toEqual([]);
  });

  it('has every relative link of docs/ and the README land on a file and heading that exist', () => {
    expect(markdownPages).toContain('docs/README.md');
    const broken = markdownPages.flatMap((page) => brokenLinks(readFileSync(join(root, page), 'utf8'), dirname(join(root, page)), readTarget).map((why) => `${page}: ${why}`));
    expect(broken).toEqual([]);
  });

  it('links every page of docs/ from docs/README.md', () => {
    const index = readFileSync(join(root, 'docs/README.md'), 'utf8');
    const pages = markdownPages.filter((page) => page.startsWith('docs/') && page !== 'docs/README.md').map((page) => relative('docs', page));
    expect(pages.filter((page) => !index.includes(`](${page})`))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('finds a citation of the outside files, and not a file whose name merely ends the same', () => {
    expect(outsideCitations(['// fine', `// see ${'SPEC'}.md section 3`, `// MY_${'SPEC'}.mdx is not it`].join('\n'))).toEqual([`2: // see ${'SPEC'}.md section 3`]);
    expect(outsideCitations(`/** ${'DESIGN'}.md section 7 */`)).toHaveLength(1);
  });

  it('gives headings the anchors a renderer gives them, ignoring code blocks', () => {
    const anchors = headingAnchors("# Title\n## The UI's client rules\n## Session, theme and events\n```sh\n# not a heading\n```\n## Title\n");
    expect([...anchors]).toEqual(['title', 'the-uis-client-rules', 'session-theme-and-events', 'title-1']);
  });

  it('reports a missing file and a missing heading, and accepts those that exist', () => {
    const files: Record<string, string> = { '/d/a.md': '## Here\n', '/d/folder': '' };
    const read = (path: string) => files[path] ?? null;
    const page = '# Page\n[ok](a.md#here) [ok](folder) [ok](#page) [web](https://example.com/x#y) [bad](b.md) [bad](a.md#there) [bad](#nowhere)\n```\n[code](c.md)\n```';
    expect(brokenLinks(page, '/d', read)).toEqual(['b.md: no such file', 'a.md#there: no such heading', '#nowhere: no such heading']);
  });
});
