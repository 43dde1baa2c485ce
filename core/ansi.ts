// Playwright writes SGR colour codes into messages, stacks and snippets regardless of TTY.
// Other CSI sequences (cursor moves from progress bars) show up in stdout captures.
const ANSI_PATTERN = /\u001b\[[0-9;?]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.includes('\u001b') ? text.replace(ANSI_PATTERN, '') : text;
}
