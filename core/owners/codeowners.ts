/**
 * GitHub's CODEOWNERS rules: each line is a gitignore-style pattern and its owners; the last
 * line whose pattern matches a file decides its owners, and a pattern with no owners leaves the
 * file unowned. Matching walks the pattern and the path segment by segment (no regular
 * expression is built from a pattern): its cost is bounded by the product of their lengths.
 */

export interface CodeownersRule {
  pattern: string;
  owners: string[];
  /** 1-based line of the file, for messages. */
  line: number;
  segments: string[];
  /** A trailing slash: only a directory matches, so only the files beneath it. */
  directoryOnly: boolean;
}

export interface Codeowners {
  rules: CodeownersRule[];
  /** Lines GitHub also ignores (negation, a pattern of nothing), with why. */
  problems: string[];
}

/** Where GitHub looks for the file, in the order it looks. */
export const CODEOWNERS_LOCATIONS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

/** A CODEOWNERS file larger than this is refused: GitHub's own limit is 3 MB. */
export const CODEOWNERS_MAX_BYTES = 3 * 1024 * 1024;

const MAX_OWNER_LENGTH = 200;

/** An owner as GitHub takes it: @user, @org/team, or an email address. */
export function isOwnerName(text: string): boolean {
  if (text.length < 2 || text.length > MAX_OWNER_LENGTH) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 32 || code === 127) return false;
  }
  return text.startsWith('@') ? text.length > 1 : text.indexOf('@') > 0;
}

export function parseCodeowners(text: string): Codeowners {
  const rules: CodeownersRule[] = [];
  const problems: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const words = line.split(/[ \t]+/);
    let pattern = words[0]!;
    // A backslash lets a pattern begin with '#'.
    if (pattern.startsWith('\\#')) pattern = pattern.slice(1);
    const owners: string[] = [];
    for (const word of words.slice(1)) {
      if (word.startsWith('#')) break; // the rest of the line is a comment
      if (isOwnerName(word)) owners.push(word);
      else problems.push(`line ${i + 1}: ${JSON.stringify(word.slice(0, 80))} is not an owner (@user, @org/team or an email address)`);
    }
    if (pattern.startsWith('!')) {
      problems.push(`line ${i + 1}: negated patterns (!) do not work in CODEOWNERS; the line is ignored`);
      continue;
    }
    const compiled = compile(pattern);
    if (compiled === null) {
      problems.push(`line ${i + 1}: ${JSON.stringify(pattern.slice(0, 80))} matches nothing; the line is ignored`);
      continue;
    }
    rules.push({ pattern, owners, line: i + 1, ...compiled });
  }
  return { rules, problems };
}

function compile(pattern: string): { segments: string[]; directoryOnly: boolean } | null {
  const directoryOnly = pattern.endsWith('/');
  const body = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  if (body === '') return null;
  const segments = body.split('/').filter((s) => s !== '');
  // A separator at the start or in the middle anchors the pattern at the repository's root;
  // otherwise it may match at any depth.
  const anchored = pattern.startsWith('/') || segments.length > 1;
  return { segments: anchored ? segments : ['**', ...segments], directoryOnly };
}

/** Whether the rule matches a file (a path from the repository root, '/'-separated). */
export function ruleMatches(rule: CodeownersRule, file: string): boolean {
  const path = file.split('/').filter((s) => s !== '' && s !== '.');
  if (path.length === 0) return false;
  const p = rule.segments;
  const last = p[p.length - 1]!;
  // How much of the path the whole pattern may cover: the file itself, or a folder above it
  // (which owns what it holds). A trailing slash wants a folder; GitHub's `docs/*` owns the
  // files directly in docs, not those of its subfolders; a trailing `**` covers what is inside.
  const fileOnly = last === '*' || last === '**';
  const ends = (covered: number) => (rule.directoryOnly ? covered < path.length : fileOnly ? covered === path.length : true) && covered > 0;
  // reach[j]: the pattern's segments so far can cover exactly the first j path segments.
  let reach = new Array<boolean>(path.length + 1).fill(false);
  reach[0] = true;
  for (let i = 0; i < p.length; i++) {
    const segment = p[i]!;
    const next = new Array<boolean>(path.length + 1).fill(false);
    if (segment === '**') {
      // Zero or more folders; a trailing one at least one thing inside.
      const least = i === p.length - 1 ? 1 : 0;
      let seen = -1;
      for (let j = 0; j <= path.length; j++) {
        if (reach[j] && seen < 0) seen = j;
        if (seen >= 0 && j - seen >= least) next[j] = true;
      }
    } else {
      for (let j = 0; j < path.length; j++) if (reach[j] && globSegment(segment, path[j]!)) next[j + 1] = true;
    }
    reach = next;
  }
  for (let j = 1; j <= path.length; j++) if (reach[j] && ends(j)) return true;
  return false;
}

/**
 * `*` (any run of characters) and `?` (one) within one path segment; everything else literal
 * (CODEOWNERS has no character classes). The usual two-pointer walk: one remembered star, so
 * at most pattern × name steps, never exponential.
 */
export function globSegment(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const c = pattern[p];
    if (c === '*') {
      star = p++;
      resume = n;
    } else if (p < pattern.length && (c === '?' || c === name[n])) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** The owners of a file: the last matching rule's (empty when it names none, or none matches). */
export function ownersOfFile(codeowners: Codeowners, file: string): string[] {
  for (let i = codeowners.rules.length - 1; i >= 0; i--) {
    const rule = codeowners.rules[i]!;
    if (ruleMatches(rule, file)) return rule.owners;
  }
  return [];
}
