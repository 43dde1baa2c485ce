/** A one-line progress display on a terminal; silent when stderr is a pipe or a file. */
export interface Progress {
  start(file: string): void;
  clear(): void;
  done(): void;
}

export function createProgress(total: number, stream: NodeJS.WriteStream | null): Progress {
  const enabled = stream !== null && stream.isTTY === true && total > 1;
  let index = 0;
  let shown = false;
  return {
    start(file) {
      index++;
      if (!enabled) return;
      const width = Math.max(20, (stream.columns ?? 80) - 16);
      const name = file.length > width ? `…${file.slice(-width + 1)}` : file;
      stream.write(`\r\u001b[2K[${index}/${total}] ${name}`);
      shown = true;
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
