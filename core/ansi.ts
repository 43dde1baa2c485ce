// Playwright writes SGR colour codes into messages, stacks and snippets regardless of TTY.
// Other CSI sequences (cursor moves from progress bars) and OSC hyperlinks show up in stdout
// captures. An escape that starts no known sequence is dropped too: removing one sequence must
// never join the text around it into another ("\u001b\u001b[0m[31m"), so stripping twice
// changes nothing. One pass: a failed OSC ends at the next escape, where the next match starts.
const ANSI_PATTERN = /\u001b(?:\[[0-9;?]*[A-Za-z]|\][^\u0007\u001b]*(?:\u0007|\u001b\\))?|\u009b(?:[0-9;?]*[A-Za-z])?/g;

export function stripAnsi(text: string): string {
  return text.includes('\u001b') || text.includes('\u009b') ? text.replace(ANSI_PATTERN, '') : text;
}
