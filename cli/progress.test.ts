import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 80, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream };
}

describe('createProgress', () => {
  it('shows the file and the tests stored on a terminal, and clears its line', () => {
    const { writes, stream } = fakeStream(true);
    const progress = createProgress(2, stream);
    progress.start('a.json');
    progress.tests(2000, 50000);
    progress.clear();
    expect(writes).toEqual(['\r\u001b[2K[1/2] a.json', '\r\u001b[2K[1/2] a.json 2000/50000 tests', '\r\u001b[2K']);
  });

  it('stays silent when stderr is not a terminal', () => {
    const { writes, stream } = fakeStream(false);
    const progress = createProgress(2, stream);
    progress.start('a.json');
    progress.tests(2000, 50000);
    progress.done();
    expect(writes).toEqual([]);
  });
});
