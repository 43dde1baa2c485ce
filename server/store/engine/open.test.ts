import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../fixtures/testing/temp.js';
import { openStore, SERVER_CACHE_MB } from './open.js';
import { StoreError } from './types.js';

let temp: ReturnType<typeof makeTempDir>;
const undo: Array<() => void> = [];
beforeEach(() => {
  temp = makeTempDir('flakeboard-open-');
});
afterEach(() => {
  while (undo.length > 0) undo.pop()!();
  temp.cleanup();
});

/**
 * Makes a file or folder unwritable for this process. Root ignores modes, so as root (CI
 * containers) the immutable attribute stands in for a read-only mount: nobody can write it.
 */
function makeReadOnly(path: string, mode: number): void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', path]);
    undo.push(() => execFileSync('chattr', ['-i', path]));
  } else {
    chmodSync(path, mode);
    undo.push(() => chmodSync(path, 0o700));
  }
}

function openError(path: string): StoreError {
  try {
    openStore(path);
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error(`${path} opened`);
}

async function createDatabase(path: string): Promise<void> {
  await openStore(path).close();
}

describe('openStore names the database in every error', () => {
  it('a read-only folder (SQLite cannot create the -wal beside it)', async () => {
    const folder = join(temp.dir, 'ro');
    const path = join(folder, 'f.db');
    mkdirSync(folder);
    await createDatabase(path);
    makeReadOnly(folder, 0o555);
    const error = openError(path);
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/read-only|writable/);
  });

  it('a read-only file', async () => {
    const path = join(temp.dir, 'f.db');
    await createDatabase(path);
    makeReadOnly(path, 0o444);
    expect(openError(path).message).toBe(
      `the database ${path} is read-only (a read-only file, folder or mount): flakeboard must be able to write it, and to create f.db-wal and f.db-shm in ${temp.dir}`,
    );
  });

  it('a new database in a folder it may not write', () => {
    const folder = join(temp.dir, 'locked');
    mkdirSync(folder);
    makeReadOnly(folder, 0o555);
    const path = join(folder, 'sub', 'f.db');
    expect(openError(path).message).toMatch(new RegExp(`^cannot open the database ${path}: permission denied .*; check the permissions of ${join(folder, 'sub')}$`));
  });

  it('a path through a file, a folder in place of the file, and a file that is not a database', () => {
    const file = join(temp.dir, 'plain');
    writeFileSync(file, 'x');
    expect(openError(join(file, 'f.db')).message).toBe(`cannot open the database ${join(file, 'f.db')}: a part of the path ${file} is a file, not a folder`);
    const folder = join(temp.dir, 'folder.db');
    mkdirSync(folder);
    expect(openError(folder).message).toBe(`cannot open the database ${folder}: it is a folder; pass the path of a file`);
    const notDb = join(temp.dir, 'notes.db');
    writeFileSync(notDb, 'these are notes, not a database'.repeat(100));
    expect(openError(notDb).message).toBe(`the file ${notDb} is not a flakeboard (SQLite) database`);
  });
});

describe('the page cache of a connection', () => {
  it('is 64 MB for an import and what the caller asks for a server (SERVER_CACHE_MB)', async () => {
    const path = join(temp.dir, 'cache.db');
    const writer = openStore(path);
    const server = openStore(path, { cacheMb: SERVER_CACHE_MB });
    const reader = openStore(path, { readonly: true, cacheMb: SERVER_CACHE_MB });
    try {
      expect(writer.sqlite.pragma('cache_size', { simple: true })).toBe(-64 * 1024);
      expect(server.sqlite.pragma('cache_size', { simple: true })).toBe(-SERVER_CACHE_MB * 1024);
      expect(reader.sqlite.pragma('cache_size', { simple: true })).toBe(-SERVER_CACHE_MB * 1024);
      expect(SERVER_CACHE_MB).toBeLessThan(64);
    } finally {
      for (const store of [reader, server, writer]) await store.close();
    }
  });
});
