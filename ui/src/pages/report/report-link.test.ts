import { describe, expect, it } from 'vitest';
import { dashboardLink, reportLink } from './report-link.js';

describe('the report links', () => {
  it('carry the window, and the branch when one is chosen, encoded', () => {
    expect(reportLink(30, null)).toBe('/report?days=30');
    expect(reportLink(0, 'main')).toBe('/report?days=0&branch=main');
    expect(reportLink(7, 'feature/a b&c')).toBe('/report?days=7&branch=feature%2Fa+b%26c');
    expect(new URLSearchParams(reportLink(7, 'feature/a b&c').split('?')[1]).get('branch')).toBe('feature/a b&c');
  });

  it('lead back to the dashboard on the same branch', () => {
    expect(dashboardLink(null)).toBe('/');
    expect(dashboardLink('release/1.2')).toBe('/?branch=release%2F1.2');
  });
});
