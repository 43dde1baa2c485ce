import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCRYPT, scryptParamsFromEnv } from '../server/auth/passwords.js';
import { NO_TERMINAL, readPassword, type PromptInput } from './password-prompt.js';

/** Standard input on a terminal, as far as the prompt can tell: raw mode and data events. */
class FakeTty extends EventEmitter implements PromptInput {
  isTTY = true;
  isRaw = false;
  rawModes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    this.rawModes.push(mode);
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  async *[Symbol.asyncIterator](): AsyncIterator<string | Buffer> {}
}

function fakeTerminal() {
  const input = new FakeTty();
  const written: string[] = [];
  const exit = vi.fn();
  /** Types once the prompt listens, as a person would after seeing it. */
  const type = async (...chunks: Array<string | Buffer>): Promise<void> => {
    while (input.listenerCount('data') === 0) await new Promise((r) => setImmediate(r));
    for (const chunk of chunks) input.emit('data', chunk);
  };
  return { input, written, exit, type, io: { input, output: { write: (s: string) => written.push(s) }, exit } };
}

describe('readPassword on a terminal', () => {
  it('asks twice without echoing anything and restores the terminal', async () => {
    const t = fakeTerminal();
    const password = readPassword({ ...t.io, confirm: true });
    await t.type('correct horse\r');
    await t.type('correct ', 'horse\r');
    await expect(password).resolves.toBe('correct horse');
    expect(t.written).toEqual(['Password: ', '\n', 'Repeat the password: ', '\n']);
    expect(t.input.rawModes).toEqual([true, false, true, false]);
    expect(t.input.isRaw).toBe(false);
    expect(t.input.listenerCount('data')).toBe(0);
  });

  it('asks once for an existing password', async () => {
    const t = fakeTerminal();
    const password = readPassword(t.io);
    await t.type('password1\n');
    await expect(password).resolves.toBe('password1');
    expect(t.written).toEqual(['Password: ', '\n']);
  });

  it('handles Backspace, Ctrl-U, arrow keys and characters split across chunks', async () => {
    const t = fakeTerminal();
    const password = readPassword(t.io);
    const e = Buffer.from('é');
    await t.type('wrong', '\u0015', 'pass', '\u001b[D', '\u001bOA', 'wordX', '\u007f', 'Y\b', Buffer.from([e[0]!]), Buffer.concat([e.subarray(1), Buffer.from('1\r')]));
    await expect(password).resolves.toBe('passwordé1');
  });

  it('refuses two passwords that differ', async () => {
    const t = fakeTerminal();
    const password = readPassword({ ...t.io, confirm: true });
    await t.type('password1\r');
    await t.type('password2\r');
    await expect(password).rejects.toThrow('the two passwords do not match');
  });

  it('refuses a short password before asking for it again', async () => {
    const t = fakeTerminal();
    const password = readPassword({ ...t.io, confirm: true });
    await t.type('short\r');
    await expect(password).rejects.toThrow('the password must be at least 8 characters');
    expect(t.written).toEqual(['Password: ', '\n']);
  });

  it('Ctrl-C exits with 130 after restoring the terminal', async () => {
    const t = fakeTerminal();
    t.exit.mockImplementation(() => expect(t.input.isRaw).toBe(false));
    const password = readPassword(t.io);
    await t.type('pass\u0003word\r');
    await expect(password).rejects.toThrow('interrupted');
    expect(t.exit).toHaveBeenCalledWith(130);
    expect(t.exit).toHaveBeenCalledTimes(1);
  });

  it('Ctrl-D gives up on an empty line and accepts a typed one', async () => {
    const empty = fakeTerminal();
    const none = readPassword(empty.io);
    await empty.type('\u0004');
    await expect(none).rejects.toThrow('no password given');
    const typed = fakeTerminal();
    const some = readPassword(typed.io);
    await typed.type('password1\u0004');
    await expect(some).resolves.toBe('password1');
  });

  it('gives up when the input ends', async () => {
    const t = fakeTerminal();
    const password = readPassword(t.io);
    while (t.input.listenerCount('end') === 0) await new Promise((r) => setImmediate(r));
    t.input.emit('end');
    await expect(password).rejects.toThrow('no password given: the input ended');
    expect(t.input.isRaw).toBe(false);
  });
});

describe('readPassword without a terminal', () => {
  it('refuses to ask when standard input is not a terminal', async () => {
    const input = Object.assign(Readable.from([]), { isTTY: false }) as unknown as PromptInput;
    await expect(readPassword({ input })).rejects.toThrow(NO_TERMINAL);
    expect(NO_TERMINAL).toBe('no terminal to ask for the password on: pipe it in with --password-stdin');
  });

  it('--password-stdin takes the first line without its line ending, even on a terminal', async () => {
    const piped = Readable.from([Buffer.from('pass word'), Buffer.from(' 1\r\nsecond line\n')]) as unknown as PromptInput;
    await expect(readPassword({ passwordStdin: true, confirm: true, input: piped })).resolves.toBe('pass word 1');
    const noNewline = Readable.from(['password1']) as unknown as PromptInput;
    await expect(readPassword({ passwordStdin: true, input: noNewline })).resolves.toBe('password1');
  });

  it('--password-stdin checks the length', async () => {
    await expect(readPassword({ passwordStdin: true, input: Readable.from(['']) as unknown as PromptInput })).rejects.toThrow('the password must be at least 8 characters');
    await expect(readPassword({ passwordStdin: true, input: Readable.from(['x'.repeat(129)]) as unknown as PromptInput })).rejects.toThrow('the password must be at most 128 characters');
  });
});

describe('scryptParamsFromEnv', () => {
  it('is DEFAULT_SCRYPT unless FLAKEBOARD_SCRYPT_N is a power of two from 1024', () => {
    expect(scryptParamsFromEnv({})).toEqual(DEFAULT_SCRYPT);
    expect(scryptParamsFromEnv({ FLAKEBOARD_SCRYPT_N: '1024' })).toEqual({ N: 1024, r: 8, p: 1 });
    expect(scryptParamsFromEnv({ FLAKEBOARD_SCRYPT_N: '65536' })).toEqual({ N: 65536, r: 8, p: 1 });
    for (const bad of ['', '512', '1000', '1025', '-1024', '1024.0', '1e4', 'abc', String(2 ** 21)]) {
      expect(scryptParamsFromEnv({ FLAKEBOARD_SCRYPT_N: bad })).toEqual(DEFAULT_SCRYPT);
    }
  });

  it('reads process.env by default', () => {
    vi.stubEnv('FLAKEBOARD_SCRYPT_N', '2048');
    try {
      expect(scryptParamsFromEnv().N).toBe(2048);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
