import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

/** One report file to import, or an input that named none (with the reason). */
export type InputFile = { file: string } | { input: string; error: string };

/**
 * Expands the command line's files, folders (searched recursively for .json) and globs into
 * report files, in a stable order, each once. An input that yields nothing is an error entry
 * so the user hears about it and the exit code says so.
 */
export async function expandInputs(inputs: readonly string[], cwd = process.cwd()): Promise<InputFile[]> {
  const seen = new Set<string>();
  const out: InputFile[] = [];
  const add = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    out.push({ file });
  };
  for (const input of inputs) {
    if (isDynamicPattern(input)) {
      const matches = (await glob(input, { cwd, onlyFiles: true, dot: false, ignore: ['**/node_modules/**'] })).sort();
      const reports = matches.filter(isJsonName);
      if (reports.length === 0) out.push({ input, error: matches.length > 0 ? `no .json reports match ${input}` : `no files match ${input}` });
      reports.forEach(add);
      continue;
    }
    let info;
    try {
      info = await stat(resolve(cwd, input));
    } catch (error) {
      out.push({ input, error: `cannot read ${input}: ${describeFsError(error)}` });
      continue;
    }
    if (!info.isDirectory()) {
      add(input);
      continue;
    }
    // Shown as the user wrote the folder, so messages name files the way they think of them.
    const dir = resolve(cwd, input);
    const reports = (await listJsonFiles(dir)).map((f) => join(input, relative(dir, f))).sort();
    if (reports.length === 0) out.push({ input, error: `no .json reports found in the folder ${input}` });
    reports.forEach(add);
  }
  return out;
}

async function listJsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && isJsonName(e.name) && !join(e.parentPath, e.name).includes(`${'/'}node_modules/`))
    .map((e) => join(e.parentPath, e.name));
}

function isJsonName(name: string): boolean {
  return name.toLowerCase().endsWith('.json');
}

export function describeFsError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    default:
      return e.message ?? String(error);
  }
}
