/**
 * What differs between a failing project and the passing ones. A Playwright JSON report keeps
 * each project's name and timeout but not its `use` block, and the store keeps the names: so
 * the settings are read from the words of the names ("Mobile Safari", "phone", "dark",
 * "firefox", "hidpi"), the way Playwright's own device and project names spell them.
 */
import type { BrowserTally } from './evidence.js';

export type ProjectSetting = 'viewport' | 'isMobile' | 'hasTouch' | 'colorScheme' | 'browserName' | 'deviceScaleFactor';

export interface SettingDifference {
  setting: ProjectSetting;
  /** The failing project's value, in words. */
  value: string;
  /** What the passing projects have instead, in words. */
  others: string;
}

interface Read {
  setting: ProjectSetting;
  value: string;
}

const WORDS: Array<{ words: string[]; reads: Read[] }> = [
  { words: ['mobile', 'phone', 'iphone', 'pixel', 'galaxy', 'android', 'smartphone'], reads: [{ setting: 'viewport', value: 'a phone-sized viewport' }, { setting: 'isMobile', value: 'isMobile (touch)' }] },
  { words: ['tablet', 'ipad'], reads: [{ setting: 'viewport', value: 'a tablet-sized viewport' }, { setting: 'isMobile', value: 'isMobile (touch)' }] },
  { words: ['desktop', 'laptop', 'widescreen'], reads: [{ setting: 'viewport', value: 'a desktop-sized viewport' }] },
  { words: ['touch', 'touchscreen'], reads: [{ setting: 'hasTouch', value: 'hasTouch: true (touch input)' }] },
  { words: ['dark'], reads: [{ setting: 'colorScheme', value: 'colorScheme: dark' }] },
  { words: ['light'], reads: [{ setting: 'colorScheme', value: 'colorScheme: light' }] },
  { words: ['chromium', 'chrome', 'edge', 'msedge'], reads: [{ setting: 'browserName', value: 'chromium' }] },
  { words: ['firefox'], reads: [{ setting: 'browserName', value: 'firefox' }] },
  { words: ['webkit', 'safari'], reads: [{ setting: 'browserName', value: 'webkit' }] },
  { words: ['hidpi', 'retina', '2x', '3x'], reads: [{ setting: 'deviceScaleFactor', value: 'a deviceScaleFactor above 1' }] },
];

/** Defaults a project has when its name says nothing about a setting. */
const DEFAULTS: Record<ProjectSetting, string> = {
  viewport: 'a desktop-sized viewport',
  isMobile: 'no isMobile',
  hasTouch: 'no touch input',
  colorScheme: 'colorScheme: light',
  browserName: 'chromium',
  deviceScaleFactor: 'deviceScaleFactor 1',
};

/** Words of a name: letters and digits, lower case, split at anything else (no regex: names are report text). */
function wordsOf(name: string): string[] {
  const words: string[] = [];
  let current = '';
  for (const ch of name.slice(0, 200).toLowerCase()) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) current += ch;
    else if (current) {
      words.push(current);
      current = '';
    }
  }
  if (current) words.push(current);
  return words;
}

function settingsOf(t: BrowserTally): Map<ProjectSetting, string> {
  const found = new Map<ProjectSetting, string>();
  const words = new Set([t.browser, ...t.projects].flatMap(wordsOf));
  for (const entry of WORDS) if (entry.words.some((w) => words.has(w))) for (const r of entry.reads) if (!found.has(r.setting)) found.set(r.setting, r.value);
  return found;
}

/** Settings the failing project has that no passing project shares; the most telling first. */
export function settingsThatDiffer(failing: BrowserTally, passing: readonly BrowserTally[]): SettingDifference[] {
  const mine = settingsOf(failing);
  const theirs = passing.map(settingsOf);
  const out: SettingDifference[] = [];
  for (const [setting, value] of mine) {
    const values = theirs.map((s) => s.get(setting) ?? DEFAULTS[setting]);
    if (values.every((v) => v !== value)) out.push({ setting, value, others: [...new Set(values)].join(' or ') });
  }
  return out;
}
