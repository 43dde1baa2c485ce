import { describe, expect, it } from 'vitest';
import { uploaderOf } from './uploader.js';

describe('uploaderOf', () => {
  it('names the user, the token a user acted through, or what stored the run from the command line', () => {
    expect(uploaderOf({ uploaded_by_username: 'rita', uploaded_via: null })).toBe('rita');
    expect(uploaderOf({ uploaded_by_username: 'admin', uploaded_via: 'token github-actions' })).toBe('admin via token github-actions');
    expect(uploaderOf({ uploaded_by_username: null, uploaded_via: 'reporter on build-7' })).toBe('reporter on build-7');
    expect(uploaderOf({ uploaded_by_username: null, uploaded_via: null })).toBeNull();
    expect(uploaderOf({ uploaded_by_username: ' ', uploaded_via: '' })).toBeNull();
  });
});
