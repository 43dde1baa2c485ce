/** File names of the Trends tab's exports: title plus browser plus _trends.csv (docs/screens.md#flaky-test-analysis). */

/** A title as a file-name part: no path separators, control or reserved characters, bounded. */
export function safeFileNamePart(text: string, fallback = 'test'): string {
  const safe = text
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/_+/g, '_');
  // Trimmed again after the cut: the 100th character may be a dot or an underscore.
  const trimmed = trimDotsAndUnderscores(trimDotsAndUnderscores(safe).slice(0, 100));
  return trimmed === '' ? fallback : trimmed;
}

/** Not /[._]+$/: it restarted at every character of a long "._._." run (a title of dots). */
function trimDotsAndUnderscores(text: string): string {
  const edge = (c: string | undefined) => c === '.' || c === '_';
  let start = 0;
  let end = text.length;
  while (start < end && edge(text[start])) start++;
  while (end > start && edge(text[end - 1])) end--;
  return text.slice(start, end);
}

export function trendsFileName(title: string, browser: string, extension: 'csv' | 'png'): string {
  return `${safeFileNamePart(title)}_${safeFileNamePart(browser, 'browser')}_trends.${extension}`;
}
