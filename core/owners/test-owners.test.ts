import { describe, expect, it } from 'vitest';
import { declaredOwners, MAX_OWNERS_PER_TEST, ownerName, OwnersCollector } from './test-owners.js';

describe('owners a test declares', () => {
  it('reads owner annotations (several names) and @owner: tags; names without @ become @names', () => {
    expect(declaredOwners(['@slow', '@owner:alice', '@owner:org/web'], [{ type: 'owner', description: '@payments, bob  dev@example.com' }, { type: 'issue', description: '@nope' }])).toEqual([
      { owner: '@payments', source: 'annotation' },
      { owner: '@bob', source: 'annotation' },
      { owner: 'dev@example.com', source: 'annotation' },
      { owner: '@alice', source: 'tag' },
      { owner: '@org/web', source: 'tag' },
    ]);
  });

  it('ignores what cannot be an owner and keeps a name once', () => {
    expect(ownerName('  ')).toBeNull();
    expect(ownerName('a\u0000b')).toBeNull();
    expect(ownerName('x'.repeat(300))).toBeNull();
    expect(declaredOwners(['@owner:', '@owner:alice', '@owner:alice'], [{ type: 'owner' }, { type: 'owner', description: '@alice' }])).toEqual([{ owner: '@alice', source: 'annotation' }]);
    const many = Array.from({ length: 50 }, (_, i) => `@owner:p${i}`);
    expect(declaredOwners(many, [])).toHaveLength(MAX_OWNERS_PER_TEST);
  });

  it('a test gets its declared owners from any of its projects, else its file\'s CODEOWNERS owners', () => {
    const collector = new OwnersCollector((file) => (file === 'a.spec.ts' ? ['@team'] : null));
    const test = (title: string, file: string, tags: string[] = []) => ({ file, titlePath: [title], tags, annotations: [] });
    collector.add(test('one', 'a.spec.ts'));
    collector.add(test('one', 'a.spec.ts', ['@owner:carol']));
    collector.add(test('two', 'a.spec.ts'));
    collector.add(test('three', 'b.spec.ts'));
    expect(collector.result()).toEqual({
      codeowners: true,
      tests: [
        { file: 'a.spec.ts', titlePath: '["one"]', owners: [{ owner: '@carol', source: 'tag' }] },
        { file: 'a.spec.ts', titlePath: '["two"]', owners: [{ owner: '@team', source: 'codeowners' }] },
        { file: 'b.spec.ts', titlePath: '["three"]', owners: [] },
      ],
    });
    expect(new OwnersCollector(null).result().codeowners).toBe(false);
  });
});
