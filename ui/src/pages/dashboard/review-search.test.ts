import { describe, expect, it } from 'vitest';
import type { PendingUpload } from '../../../../core/api/uploads.js';
import { filterPendingUploads } from './review-search.js';

const upload = (id: number, fields: Partial<PendingUpload>): PendingUpload => ({
  id,
  file_path: `run-${id}.json`,
  browser: 'chromium',
  project: null,
  timestamp: '2026-11-20T10:00:00Z',
  uploaded_by_username: null,
  uploaded_via: null,
  git_branch: null,
  build_id: null,
  total_tests: 1,
  passed_tests: 1,
  failed_tests: 0,
  is_duplicate: 0,
  ...fields,
});

describe('filterPendingUploads', () => {
  const list = [
    upload(1, { file_path: 'reports/Nightly.json', browser: 'firefox' }),
    upload(2, { project: 'Checkout', uploaded_by_username: 'Alice' }),
    upload(3, { browser: 'chromium, webkit' }),
    upload(4, { uploaded_via: 'reporter on build-host', git_branch: 'feature/Login' }),
  ];

  it('keeps everything for a blank query', () => {
    expect(filterPendingUploads(list, '  ').map((u) => u.id)).toEqual([1, 2, 3, 4]);
  });

  it('matches each searchable field case-insensitively', () => {
    expect(filterPendingUploads(list, 'nightly').map((u) => u.id)).toEqual([1]);
    expect(filterPendingUploads(list, 'FIREFOX').map((u) => u.id)).toEqual([1]);
    expect(filterPendingUploads(list, 'checkout').map((u) => u.id)).toEqual([2]);
    expect(filterPendingUploads(list, 'alice').map((u) => u.id)).toEqual([2]);
    expect(filterPendingUploads(list, 'webkit').map((u) => u.id)).toEqual([3]);
    expect(filterPendingUploads(list, 'BUILD-HOST').map((u) => u.id)).toEqual([4]);
    expect(filterPendingUploads(list, 'feature/login').map((u) => u.id)).toEqual([4]);
  });

  it('is a substring match, and missing fields never match', () => {
    expect(filterPendingUploads(list, 'run-').map((u) => u.id)).toEqual([2, 3, 4]);
    expect(filterPendingUploads(list, 'null')).toEqual([]);
  });
});
