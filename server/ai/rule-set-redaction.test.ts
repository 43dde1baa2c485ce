/**
 * Every kind of secret a failing test has been seen to print is redacted before text leaves for
 * an agent or a model, by the maintained rule set or the hand-kept rules, and the work stays
 * linear on hostile input.
 */
import { describe, expect, it } from 'vitest';
import { newToken, API_TOKEN_PREFIX } from '../auth/tokens.js';
import { redactSecrets } from './redact.js';
import { CHUNK_CHARS, chunkBounds, redactDeepWithRuleSet, redactWithRuleSet } from './rule-set-redaction.js';
import { cpuMsOfAsync } from '../../fixtures/testing/thread-cpu.js';

const flakeboardToken = newToken(API_TOKEN_PREFIX);

// [what it is, the line a test printed, the secret in it]
const KINDS: Array<[string, string, string]> = [
  ['flakeboard API token', `curl -H "x-token: ${flakeboardToken}" http://127.0.0.1:4680`, flakeboardToken],
  ['flakeboard API token in prose', `upload failed with ${flakeboardToken} (expired)`, flakeboardToken],
  ['Stripe live key', 'stripe.charges.create failed with key sk_live_51HabcDEFghiJKLmnoPQRstu', 'sk_live_51HabcDEFghiJKLmnoPQRstu'],
  ['Azure storage AccountKey', 'DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=q2Ldi8XzS0j4m7yVw1Bd9kPz+Tn3Rt5/UvWxYz0123456789abcdefGHIJKL==;EndpointSuffix=core.windows.net', 'q2Ldi8XzS0j4m7yVw1Bd9kPz+Tn3Rt5'],
  ['DB_PASS env line', 'DB_HOST=db DB_PASS=Tr0ub4dor3 DB_USER=app', 'Tr0ub4dor3'],
  ['mysql -p', 'Error: Command failed: mysql -h db -uroot -pS3cretRoot shop < seed.sql', 'S3cretRoot'],
  ['Slack webhook', 'POST https://hooks.slack.com/services/T0ABCDEFG/B0HIJKLMN/aBcDeFgHiJkLmNoPqRsTuVwX answered 404', 'aBcDeFgHiJkLmNoPqRsTuVwX'],
  ['npm token', '//registry.npmjs.org/:_authToken=npm_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5', 'npm_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5'],
  ['npm token alone', 'token npm_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5 rejected', 'npm_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5'],
  ['Hugging Face token', 'from_pretrained(use_auth=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567)', 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567'],
  ['Google OAuth access token', 'fetch gave 401 for ya29.a0AfH6SMC-Xq1Z2yQ3w4E5r6T7y8U9i0O', 'ya29.a0AfH6SMC-Xq1Z2yQ3w4E5r6T7y8U9i0O'],
  ['SendGrid key', 'mail failed: 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', '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'],
  ['URL credentials', 'GET https://admin:pw-Kx81@staging.internal/health', 'pw-Kx81'],
  ['bearer token', 'Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0', '9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
  ['AWS access key id', 'aws s3 cp failed for AKIAZ7Q3M2X9K4P1R8TW', 'AKIAZ7Q3M2X9K4P1R8TW'],
  ['AWS secret access key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Lm2Np4Q', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Lm2Np4Q'],
  ['password=', 'login with user=bob password=correct-horse-9', 'correct-horse-9'],
];

describe('redaction with the maintained rule set and the hand-kept rules', () => {
  it.each(KINDS)('%s', async (_kind, line, secret) => {
    const out = await redactWithRuleSet(line);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
    // Redacting twice changes nothing.
    expect(await redactWithRuleSet(out)).toBe(out);
  });

  it('catches the kinds the old hand-kept list missed even without the rule set', () => {
    for (const [, line, secret] of KINDS) expect(redactSecrets(line)).not.toContain(secret);
  });

  it('redacts strings inside structured content, keeping the shape', async () => {
    const out = await redactDeepWithRuleSet({ a: [KINDS[6]![1], 3], b: { c: KINDS[11]![1] }, d: null });
    expect(JSON.stringify(out)).not.toContain(KINDS[6]![2]);
    expect(JSON.stringify(out)).not.toContain(KINDS[11]![2]);
    expect(out.a[1]).toBe(3);
    expect(out.d).toBeNull();
  });

  it('redacts each of thousands of strings of a value on its own, secrets and plain text alike', async () => {
    // Many strings, many ranges: each string's ranges are found from where the last one's ended.
    const lines = Array.from({ length: 3_000 }, (_, i) => (i % 3 === 0 ? KINDS[i % KINDS.length]![1] : `step ${i} passed`));
    const out = await redactDeepWithRuleSet({ lines });
    expect(out.lines).toHaveLength(lines.length);
    for (let i = 0; i < lines.length; i++) {
      if (i % 3 === 0) expect(out.lines[i]).toBe(await redactWithRuleSet(lines[i]!));
      else expect(out.lines[i]).toBe(lines[i]);
    }
  });

  it('leaves ordinary test output alone', async () => {
    const text = "TimeoutError: locator.click: Timeout 10000ms exceeded\nwaiting for getByLabel('Password') at http://localhost:3000/login\nnpm run test -- --update-snapshots";
    expect(await redactWithRuleSet(text)).toBe(text);
  });

  it('cuts text into chunks no longer than the bound, at line ends when it can, covering it all', () => {
    const text = `${'a'.repeat(10_000)}\n${'line\n'.repeat(3000)}`;
    const bounds = chunkBounds(text);
    expect(bounds[0]![0]).toBe(0);
    expect(bounds.at(-1)![1]).toBe(text.length);
    for (let i = 0; i < bounds.length; i++) {
      const [start, end] = bounds[i]!;
      expect(end - start).toBeLessThanOrEqual(CHUNK_CHARS);
      if (i > 0) expect(start).toBe(bounds[i - 1]![1]);
    }
    // After the long line, every chunk ends at a line's end.
    for (const [, end] of bounds.slice(3, -1)) expect(text[end - 1]).toBe('\n');
  });

  // Shapes aimed at secretlint's rules: long runs that a prefix opens and never closes.
  const ADVERSARIAL = ['xoxb-', 'SG.', 'AKIA', 'npm_', 'https://a:', 'mongodb://', '-----BEGIN RSA PRIVATE KEY-----', 'ghp_', 'sk-', 'aws_secret_access_key=', 'shpat_', 'op://'];

  it('stays linear on 1 MB of adversarial text: 1 MB costs about 8× 128 KB', async () => {
    const make = (chars: number): string => {
      const piece = ADVERSARIAL.map((p) => `${p}${'a-'.repeat(40)}`).join(' ');
      return piece.repeat(Math.ceil(chars / piece.length)).slice(0, chars);
    };
    await redactWithRuleSet(make(10_000));
    // CPU time of this thread, best of three: the machine is shared, wall time is not ours, and
    // threads earlier files left running count in the process's time (fixtures/testing/thread-cpu.ts).
    const time = async (text: string): Promise<number> => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) best = Math.min(best, await cpuMsOfAsync(() => redactWithRuleSet(text)));
      return best;
    };
    const growth = async (): Promise<number> => {
      const eighth = await time(make(131_072));
      const whole = await time(make(1_048_576));
      console.log(`rule-set redaction: 128 KB ${eighth.toFixed(0)} ms, 1 MB ${whole.toFixed(0)} ms (${(whole / eighth).toFixed(1)}×)`);
      return whole / eighth;
    };
    // Each chunk is bounded, so growth is linear: 8× the text, 8× the time, more with the
    // collector's work on a larger heap (4× the text grew 4.3 to 12.2× in the test runs of one
    // day). A quadratic rescan across chunks would be 64×: 32× tells them apart, and a shape that
    // is over it once is measured again, as a neighbour's load can stall one measurement and a
    // quadratic one fails both.
    let ratio = await growth();
    if (ratio >= 32) ratio = Math.min(ratio, await growth());
    expect(ratio).toBeLessThan(32);
  }, 120_000);
});
