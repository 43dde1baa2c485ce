/** A one-line progress display on a terminal; silent when stderr is a pipe or a file. */
export interface Progress {
  start(file: string): void;
  /** Tests stored so far in the current file (big reports take seconds). */
  tests(stored: number, total: number): void;
  clear(): void;
  done(): void;
}

export function createProgress(total: number, stream: NodeJS.WriteStream | null): Progress {
  const enabled = stream !== null && stream.isTTY === true;
  let index = 0;
  let name = '';
  let shown = false;
  const show = (suffix: string): void => {
    if (!enabled) return;
    stream.write(`\r\u001b[2K[${index}/${total}] ${name}${suffix}`);
    shown = true;
  };
  return {
    start(file) {
      index++;
      const width = Math.max(20, (stream?.columns ?? 80) - 40);
      name = file.length > width ? `…${file.slice(-width + 1)}` : file;
      if (total > 1) show('');
    },
    tests(stored, all) {
      show(` ${stored}/${all} tests`);
    },
    clear() {
      if (enabled && shown) stream.write('\r\u001b[2K');
      shown = false;
    },
    done() {
      this.clear();
    },
  };
}
