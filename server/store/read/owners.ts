import { UNOWNED, type TestOwner } from '../../../core/owners/test-owners.js';
import { dialectFor } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';

const OWNERS_OF = (inIds: string) => `SELECT test_id, owner, source FROM test_owners WHERE ${inIds} ORDER BY test_id, owner`;

/**
 * The owners of each test (by test id; a test no one owns is absent from the map). What every
 * screen, answer and message that names a test's owners reads: the flaky list, the test's
 * dialog, the quarantine form's default.
 */
export async function ownersOf(store: AnyStore, testIds: readonly number[]): Promise<Map<number, TestOwner[]>> {
  const owners = new Map<number, TestOwner[]>();
  if (testIds.length === 0) return owners;
  const sql = OWNERS_OF(dialectFor(store.dialect).inJsonNumbers('test_id', '@ids'));
  for (const row of await store.sql.all<{ test_id: number; owner: string; source: TestOwner['source'] }>(sql, { ids: JSON.stringify([...new Set(testIds)]) })) {
    const id = Number(row.test_id);
    let list = owners.get(id);
    if (!list) owners.set(id, (list = []));
    list.push({ owner: row.owner, source: row.source });
  }
  return owners;
}

/** The owners of the tests with this title (in this file, when given), each once: quarantine's default owner. */
export async function ownersOfTitle(store: AnyStore, title: string, file: string | null): Promise<string[]> {
  const fileParam = dialectFor(store.dialect).typed('@file', 'TEXT');
  const rows = await store.sql.all<{ owner: string }>(
    `SELECT DISTINCT o.owner FROM test_owners o JOIN tests t ON t.id = o.test_id
     WHERE t.title = @title AND (${fileParam} IS NULL OR t.file = ${fileParam}) ORDER BY o.owner`,
    { title, file },
  );
  return rows.map((r) => r.owner);
}

/** Every owner any test has, with how many tests: the owner filter's choices (the index on owner answers it). */
export async function knownOwners(store: AnyStore): Promise<Array<{ owner: string; tests: number }>> {
  const rows = await store.sql.all<{ owner: string; tests: number }>('SELECT owner, count(*) AS tests FROM test_owners GROUP BY owner ORDER BY owner');
  return rows.map((r) => ({ owner: r.owner, tests: Number(r.tests) }));
}

export { UNOWNED };

/**
 * The tests of an owner filter, for answers that filter rows they have already read (the
 * dashboard): `owner`'s tests, or for UNOWNED the tests someone owns (the filter keeps the rest).
 */
export async function ownerFilterOf(store: AnyStore, owner: string): Promise<{ keep: (testId: number) => boolean }> {
  const unowned = owner === UNOWNED;
  const rows = unowned
    ? await store.sql.all<{ test_id: number }>('SELECT DISTINCT test_id FROM test_owners')
    : await store.sql.all<{ test_id: number }>('SELECT test_id FROM test_owners WHERE owner = @owner', { owner });
  const ids = new Set(rows.map((r) => Number(r.test_id)));
  return { keep: unowned ? (id) => !ids.has(id) : (id) => ids.has(id) };
}

/** Quarantine's owner when none is given: the owners of the test it names, space-separated (within the entry's 200 characters); null when it has none. */
export async function defaultOwner(store: AnyStore, title: string, file: string | null): Promise<string | null> {
  let text = '';
  for (const owner of await ownersOfTitle(store, title, file)) {
    const next = text === '' ? owner : `${text} ${owner}`;
    if (next.length > 200) break;
    text = next;
  }
  return text === '' ? null : text;
}
