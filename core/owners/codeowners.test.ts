import { describe, expect, it } from 'vitest';
import { globSegment, ownersOfFile, parseCodeowners } from './codeowners.js';

// The example file of GitHub's "About code owners" page, each rule on its own so that the
// files it documents can be checked against it alone, then the whole file in order.
const GITHUB_EXAMPLES: Array<{ rule: string; owns: string[]; notOwns: string[] }> = [
  { rule: '*       @global-owner1 @global-owner2', owns: ['README.md', 'a/b/c.ts', '.github/workflows/ci.yml'], notOwns: [] },
  { rule: '*.js    @js-owner #This is an inline comment.', owns: ['app.js', 'src/deep/app.js'], notOwns: ['app.ts', 'app.jsx'] },
  { rule: '*.go docs@example.com', owns: ['main.go', 'cmd/tool/main.go'], notOwns: ['main.gox'] },
  { rule: '*.txt @octo-org/octocats', owns: ['notes.txt', 'docs/notes.txt'], notOwns: ['notes.txt.bak'] },
  { rule: '/build/logs/ @doctocat', owns: ['build/logs/a.log', 'build/logs/2024/jan/a.log'], notOwns: ['build/logs', 'src/build/logs/a.log', 'build/log.txt'] },
  { rule: 'docs/* docs@example.com', owns: ['docs/getting-started.md'], notOwns: ['docs/build-app/troubleshooting.md', 'src/docs/a.md'] },
  { rule: 'apps/ @octocat', owns: ['apps/a.ts', 'src/apps/a.ts', 'x/y/apps/z/w.ts'], notOwns: ['apps', 'myapps/a.ts'] },
  { rule: '/docs/ @doctocat', owns: ['docs/a.md', 'docs/x/y.md'], notOwns: ['src/docs/a.md'] },
  { rule: '/scripts/ @doctocat @octocat', owns: ['scripts/a.sh'], notOwns: ['tools/scripts/a.sh'] },
  { rule: '**/logs @octocat', owns: ['build/logs/a.log', 'scripts/logs/b', 'deeply/nested/logs/c', 'logs/d'], notOwns: ['logsx/a', 'build/catalogs/a'] },
  { rule: '/apps/ @octocat', owns: ['apps/github/a.ts', 'apps/b.ts'], notOwns: ['x/apps/b.ts'] },
];

describe('CODEOWNERS patterns as GitHub documents them', () => {
  for (const example of GITHUB_EXAMPLES) {
    it(`${example.rule}`, () => {
      const codeowners = parseCodeowners(example.rule);
      const owners = codeowners.rules[0]!.owners;
      for (const file of example.owns) expect(ownersOfFile(codeowners, file), file).toEqual(owners);
      for (const file of example.notOwns) expect(ownersOfFile(codeowners, file), file).toEqual([]);
    });
  }

  it('reads owners up to an inline comment', () => {
    expect(parseCodeowners('*.js    @js-owner #This is an inline comment.').rules[0]!.owners).toEqual(['@js-owner']);
  });

  it('the last matching pattern wins, and one with no owners unsets them', () => {
    const file = parseCodeowners(['# comment', '', '* @global', '*.js @js-owner', '/apps/ @octocat', '/apps/github', '/apps/web @doctocat'].join('\n'));
    expect(ownersOfFile(file, 'README.md')).toEqual(['@global']);
    expect(ownersOfFile(file, 'src/x.js')).toEqual(['@js-owner']);
    expect(ownersOfFile(file, 'apps/x.js')).toEqual(['@octocat']);
    expect(ownersOfFile(file, 'apps/github/x.js')).toEqual([]);
    expect(ownersOfFile(file, 'apps/web/x.js')).toEqual(['@doctocat']);
  });

  it('escaped hash, negation, a bare slash and words that are not owners', () => {
    const file = parseCodeowners('\\#odd.ts @hash\n!skip.ts @nobody\n/ @root\nsrc/ not-an-owner @ok\r\n');
    expect(ownersOfFile(file, '#odd.ts')).toEqual(['@hash']);
    expect(ownersOfFile(file, 'skip.ts')).toEqual([]);
    expect(ownersOfFile(file, 'src/a.ts')).toEqual(['@ok']);
    expect(file.problems).toHaveLength(3);
    expect(file.problems.join('\n')).toMatch(/negated.*\n.*matches nothing.*\n.*not-an-owner/s);
  });

  it('? is one character and ** in the middle is any number of folders', () => {
    const file = parseCodeowners('e2e/**/checkout-?.spec.ts @shop');
    expect(ownersOfFile(file, 'e2e/checkout-1.spec.ts')).toEqual(['@shop']);
    expect(ownersOfFile(file, 'e2e/a/b/checkout-2.spec.ts')).toEqual(['@shop']);
    expect(ownersOfFile(file, 'e2e/a/checkout-12.spec.ts')).toEqual([]);
    expect(ownersOfFile(file, 'src/e2e/checkout-1.spec.ts')).toEqual([]);
  });

  it('a trailing /** owns what is inside', () => {
    const file = parseCodeowners('docs/** @docs');
    expect(ownersOfFile(file, 'docs/a/b.md')).toEqual(['@docs']);
    expect(ownersOfFile(file, 'docs')).toEqual([]);
  });

  it('matching stays fast on patterns made to make a backtracking matcher explode', () => {
    const star = `${'*a'.repeat(200)}b`;
    const started = performance.now();
    expect(globSegment(star, 'a'.repeat(5000))).toBe(false);
    const deep = parseCodeowners(`${'**/'.repeat(100)}x @deep`);
    expect(ownersOfFile(deep, `${'d/'.repeat(2000)}y`)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
