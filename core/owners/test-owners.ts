import type { PwAnnotation } from '../report/playwright-types.js';
import { isOwnerName } from './codeowners.js';

/** Where a test's owner came from: the test's own annotation or tag wins over CODEOWNERS. */
export type OwnerSource = 'annotation' | 'tag' | 'codeowners';

export interface TestOwner {
  owner: string;
  source: OwnerSource;
}

/** What the owner filter takes for tests no one owns. */
export const UNOWNED = 'unowned';

/** More owners than this on one test are a mistake (or an attack), not a team: the rest are dropped. */
export const MAX_OWNERS_PER_TEST = 20;

const TAG_PREFIX = '@owner:';

/**
 * An owner as written in an annotation or tag, as GitHub names it: 'alice' is '@alice',
 * '@org/team' and 'dev@example.com' stay. Null for text that cannot be an owner.
 */
export function ownerName(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const name = trimmed.includes('@') ? trimmed : `@${trimmed}`;
  return isOwnerName(name) ? name : null;
}

/**
 * The owners a test declares itself: `{ type: 'owner', description: '@team' }` annotations
 * (several names separated by commas or spaces) and `@owner:alice` tags.
 */
export function declaredOwners(tags: readonly string[], annotations: readonly PwAnnotation[]): TestOwner[] {
  const owners = new Map<string, OwnerSource>();
  for (const annotation of annotations) {
    if (annotation.type !== 'owner' || typeof annotation.description !== 'string') continue;
    for (const word of annotation.description.split(/[\s,]+/)) {
      const name = ownerName(word);
      if (name !== null && !owners.has(name)) owners.set(name, 'annotation');
    }
  }
  for (const tag of tags) {
    if (typeof tag !== 'string' || !tag.startsWith(TAG_PREFIX)) continue;
    const name = ownerName(tag.slice(TAG_PREFIX.length));
    if (name !== null && !owners.has(name)) owners.set(name, 'tag');
  }
  return [...owners].slice(0, MAX_OWNERS_PER_TEST).map(([owner, source]) => ({ owner, source }));
}

/** One test of a report and who owns it. */
export interface OwnedTest {
  file: string;
  /** JSON of the title path, as the tests table keys a test. */
  titlePath: string;
  owners: TestOwner[];
}

/** Who owns the tests of one report; `codeowners` false: no CODEOWNERS was read, so those stored before stay. */
export interface ReportOwners {
  codeowners: boolean;
  tests: OwnedTest[];
}

/** The CODEOWNERS owners of a test file as the report names it (relative to its rootDir); null when no CODEOWNERS is known. */
export type FileOwners = (file: string) => readonly string[] | null;

/**
 * Gathers the owners of each test of a report as its results come (one per project): declared
 * owners of any of its results win; otherwise its file's CODEOWNERS owners.
 */
export class OwnersCollector {
  private readonly tests = new Map<string, OwnedTest & { declared: boolean }>();
  private readonly byFile = new Map<string, readonly string[] | null>();

  /** The last test's title path array and entry: a spec's tests (one per project) share one array (normalise.ts). */
  private lastTitlePath: readonly string[] | null = null;
  private lastFile = '';
  private lastEntry: (OwnedTest & { declared: boolean }) | undefined;

  constructor(private readonly fileOwners: FileOwners | null) {}

  add(test: { file: string; titlePath: string[]; tags: readonly string[]; annotations: readonly PwAnnotation[] }): void {
    const declared = declaredOwners(test.tags, test.annotations);
    let entry = test.titlePath === this.lastTitlePath && test.file === this.lastFile ? this.lastEntry : undefined;
    if (entry === undefined) {
      const titlePath = JSON.stringify(test.titlePath);
      const key = `${test.file}\u0000${titlePath}`;
      entry = this.tests.get(key);
      if (entry === undefined) {
        entry = { file: test.file, titlePath, owners: [], declared: false };
        this.tests.set(key, entry);
      }
      this.lastTitlePath = test.titlePath;
      this.lastFile = test.file;
      this.lastEntry = entry;
    }
    if (declared.length > 0) {
      const have = entry.declared ? entry.owners : [];
      const names = new Set(have.map((o) => o.owner));
      entry.owners = [...have, ...declared.filter((o) => !names.has(o.owner))].slice(0, MAX_OWNERS_PER_TEST);
      entry.declared = true;
    } else if (!entry.declared && entry.owners.length === 0) {
      entry.owners = this.codeownersOf(test.file).map((owner) => ({ owner, source: 'codeowners' as const }));
    }
  }

  result(): ReportOwners {
    return { codeowners: this.fileOwners !== null, tests: [...this.tests.values()].map(({ file, titlePath, owners }) => ({ file, titlePath, owners })) };
  }

  private codeownersOf(file: string): readonly string[] {
    if (this.fileOwners === null) return [];
    let owners = this.byFile.get(file);
    if (owners === undefined) this.byFile.set(file, (owners = this.fileOwners(file)));
    return (owners ?? []).slice(0, MAX_OWNERS_PER_TEST);
  }
}
