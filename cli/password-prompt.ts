import { StringDecoder } from 'node:string_decoder';
import { passwordProblem } from '../server/auth/passwords.js';

/** A refused or missing password: the command prints the message and exits with 1. */
export class PasswordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasswordError';
  }
}

/** What the prompt needs of standard input: a stream, and on a terminal its raw mode. */
export interface PromptInput extends NodeJS.EventEmitter {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
  [Symbol.asyncIterator](): AsyncIterator<string | Buffer>;
}

export interface PasswordOptions {
  /** Read the password from standard input (its first line) instead of asking. */
  passwordStdin?: boolean;
  /** A new password: on a terminal it is asked twice and must match. */
  confirm?: boolean;
  /** For tests; default process.stdin, process.stderr and process.exit. */
  input?: PromptInput;
  output?: { write(text: string): unknown };
  exit?: (code: number) => void;
}

export const NO_TERMINAL = 'no terminal to ask for the password on: pipe it in with --password-stdin';

/** A password from --password-stdin or the terminal (without echo), checked by passwordProblem(). */
export async function readPassword(options: PasswordOptions = {}): Promise<string> {
  const input = options.input ?? (process.stdin as PromptInput);
  const output = options.output ?? process.stderr;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let password: string;
  if (options.passwordStdin) {
    password = firstLine(await readAll(input));
  } else {
    if (input.isTTY !== true || typeof input.setRawMode !== 'function') throw new PasswordError(NO_TERMINAL);
    password = await askHidden('Password: ', input, output, exit);
    const problem = passwordProblem(password);
    if (problem) throw new PasswordError(problem);
    if (options.confirm && (await askHidden('Repeat the password: ', input, output, exit)) !== password) {
      throw new PasswordError('the two passwords do not match');
    }
  }
  const problem = passwordProblem(password);
  if (problem) throw new PasswordError(problem);
  return password;
}

async function readAll(input: PromptInput): Promise<string> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for await (const chunk of input) text += typeof chunk === 'string' ? chunk : decoder.write(chunk);
  return text + decoder.end();
}

/** The first line, without its line ending (a file saved on Windows ends in \r\n). */
function firstLine(text: string): string {
  const end = text.search(/\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}

/**
 * Asks on the terminal in raw mode, so nothing typed is echoed. Enter accepts; Backspace
 * deletes the last character; Ctrl-U clears the line; Ctrl-C exits with 130 as a shell would;
 * Ctrl-D accepts what was typed, or gives up on an empty line. Arrow keys and other escape
 * sequences are ignored rather than becoming part of the password.
 */
export function askHidden(prompt: string, input: PromptInput, output: { write(text: string): unknown }, exit: (code: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    const wasRaw = input.isRaw === true;
    let chars: string[] = [];
    let escape: 'none' | 'esc' | 'csi' | 'ss3' = 'none';
    let done = false;

    const finish = (): void => {
      done = true;
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onError);
      input.setRawMode?.(wasRaw);
      input.pause();
      output.write('\n');
    };
    const accept = (): void => {
      finish();
      resolve(chars.join(''));
    };
    const giveUp = (message: string): void => {
      finish();
      reject(new PasswordError(message));
    };
    const onEnd = (): void => giveUp('no password given: the input ended');
    const onError = (error: Error): void => giveUp(`cannot read the password: ${error.message}`);
    const onData = (chunk: string | Buffer): void => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      for (const ch of text) {
        if (done) return;
        if (escape === 'esc') {
          escape = ch === '[' ? 'csi' : ch === 'O' ? 'ss3' : 'none';
          continue;
        }
        if (escape === 'ss3') {
          escape = 'none';
          continue;
        }
        if (escape === 'csi') {
          // Parameters until a final byte from @ to ~.
          if (ch >= '@' && ch <= '~') escape = 'none';
          continue;
        }
        switch (ch) {
          case '\r':
          case '\n':
            accept();
            break;
          case '\u0003': // Ctrl-C
            finish();
            exit(130);
            reject(new PasswordError('interrupted'));
            break;
          case '\u0004': // Ctrl-D
            if (chars.length > 0) accept();
            else giveUp('no password given');
            break;
          case '\u007f':
          case '\b':
            chars.pop();
            break;
          case '\u0015': // Ctrl-U
            chars = [];
            break;
          case '\u001b':
            escape = 'esc';
            break;
          default:
            if (ch >= ' ') chars.push(ch);
        }
      }
    };

    // Raw mode before the prompt: whatever is typed once the prompt shows is never echoed.
    input.setRawMode?.(true);
    output.write(prompt);
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('error', onError);
    input.resume();
  });
}
