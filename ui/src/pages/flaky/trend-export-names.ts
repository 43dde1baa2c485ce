/** File names of the Trends tab's exports: SPEC.md says title plus browser plus _trends.csv. */

/** A title as a file-name part: no path separators, control or reserved characters, bounded. */
export function safeFileNamePart(text: string, fallback = 'test'): string {
  const safe = text
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/_+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, 100);
  return safe === '' ? fallback : safe;
}

export function trendsFileName(title: string, browser: string, extension: 'csv' | 'png'): string {
  return `${safeFileNamePart(title)}_${safeFileNamePart(browser, 'browser')}_trends.${extension}`;
}
