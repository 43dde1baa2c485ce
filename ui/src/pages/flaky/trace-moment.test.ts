import { describe, expect, it } from 'vitest';
import { traceMomentText } from './trace-moment.js';

const sha256 = 'a'.repeat(64);

describe('traceMomentText', () => {
  it('names the time and the action, and says the viewer opens on the failed action', () => {
    expect(traceMomentText({ sha256, atMs: 2312, action: `Expect "toHaveText" on locator('#stock')`, failedAction: true, shownIn: 'actions' })).toBe(
      `at 2.31 s: Expect "toHaveText" on locator('#stock'), the viewer opens on it`,
    );
  });

  it('sends a request to the Network tab and an error without a time to the Console tab', () => {
    expect(traceMomentText({ sha256, atMs: 190, action: 'GET shop.test/api/stock', failedAction: false, shownIn: 'network' })).toBe('at 0.19 s: GET shop.test/api/stock, in the Network tab');
    expect(traceMomentText({ sha256, atMs: null, action: null, failedAction: false, shownIn: 'console' })).toBe('In the Console tab');
    expect(traceMomentText({ sha256, atMs: null, action: 'GET shop.test/api/eta', failedAction: false, shownIn: 'network' })).toBe('GET shop.test/api/eta, in the Network tab');
  });
});
