import { describe, expect, it } from 'vitest';
import { endpointAllowed, oidcSettings, parseIssuer, parsePublicUrl, roleFor, usernameFrom, type RoleMapping } from './oidc-settings.js';
import { safeReturn } from '../routes/oidc.js';

const mapping = (over: Partial<RoleMapping> = {}): RoleMapping => ({ claim: 'groups', adminGroup: null, reviewerGroup: null, allowedGroups: [], defaultRole: 'member', ...over });

describe('the issuer', () => {
  it('takes https anywhere and plain http only on loopback', () => {
    expect(parseIssuer('https://login.example.com/realms/team').href).toBe('https://login.example.com/realms/team');
    for (const local of ['http://127.0.0.1:8080', 'http://localhost:9000/x', 'http://[::1]:8080', 'http://127.3.4.5']) expect(parseIssuer(local).protocol).toBe('http:');
    for (const remote of ['http://idp.example.com', 'http://10.0.0.5', 'http://127.0.0.1.evil.example', 'http://0.0.0.0:8080']) {
      expect(() => parseIssuer(remote)).toThrow(/plain http is allowed only for a provider on this machine/);
    }
    expect(() => parseIssuer('ftp://idp.example.com')).toThrow(/must be an https:\/\/ URL/);
    expect(() => parseIssuer('not a url')).toThrow(/is not a URL/);
    expect(() => parseIssuer('https://user:pw@idp.example.com')).toThrow(/no credentials/);
  });

  it('calls only https endpoints, or loopback http for a loopback issuer', () => {
    expect(endpointAllowed('https://idp.example.com/token', new URL('https://idp.example.com'))).toBe(true);
    expect(endpointAllowed('http://idp.example.com/token', new URL('https://idp.example.com'))).toBe(false);
    expect(endpointAllowed('http://127.0.0.1:1/token', new URL('http://127.0.0.1:1'))).toBe(true);
    expect(endpointAllowed('http://idp.example.com/token', new URL('http://127.0.0.1:1'))).toBe(false);
  });

  it('a public URL is an origin only', () => {
    expect(parsePublicUrl('https://flakeboard.example.com').origin).toBe('https://flakeboard.example.com');
    expect(() => parsePublicUrl('https://example.com/flakeboard')).toThrow(/only the origin/);
  });

  it('needs a client id', () => {
    expect(() => oidcSettings({ issuer: 'https://idp.example.com', clientId: ' ' })).toThrow(/--oidc-client-id is empty/);
  });
});

describe('roles from the groups', () => {
  it('members by default, admins and reviewers from their groups', () => {
    const m = mapping({ adminGroup: 'fb-admins', reviewerGroup: 'qa' });
    expect(roleFor({ groups: ['staff'] }, m)).toBe('member');
    expect(roleFor({ groups: ['qa', 'fb-admins'] }, m)).toBe('admin');
    expect(roleFor({ groups: ['qa'] }, m)).toBe('reviewer');
    expect(roleFor({}, m)).toBe('member');
    // A claim that is one string (Google's hd, a single role) counts as one group.
    expect(roleFor({ roles: 'fb-admins' }, { ...m, claim: 'roles' })).toBe('admin');
    // Not strings: never a group.
    expect(roleFor({ groups: [{ name: 'fb-admins' }, 7] }, m)).toBe('member');
  });

  it('refuses whoever is in none of the allowed groups (admins are always allowed)', () => {
    const m = mapping({ allowedGroups: ['eng', 'qa'], adminGroup: 'fb-admins' });
    expect(roleFor({ groups: ['sales'] }, m)).toBeNull();
    expect(roleFor({}, m)).toBeNull();
    expect(roleFor({ groups: ['qa'] }, m)).toBe('member');
    expect(roleFor({ groups: ['fb-admins'] }, m)).toBe('admin');
  });
});

describe('names and return paths', () => {
  it('names an account from the first claim set, made inert', () => {
    expect(usernameFrom({ preferred_username: 'dana', email: 'd@example.com' }, ['preferred_username', 'email'], 's')).toBe('dana');
    expect(usernameFrom({ preferred_username: '  ', email: 'd@example.com' }, ['preferred_username', 'email'], 's')).toBe('d@example.com');
    expect(usernameFrom({ preferred_username: 'ev\u202eil\u001b[2J' }, ['preferred_username'], 's')).toBe('evil [2J');
    expect(usernameFrom({}, ['preferred_username'], 'subject-1')).toBe('subject-1');
    expect(usernameFrom({ preferred_username: 'x'.repeat(300) }, ['preferred_username'], 's')).toHaveLength(64);
  });

  it('returns only to a path of this site', () => {
    expect(safeReturn('/flaky-tests?days=7')).toBe('/flaky-tests?days=7');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '/login?x', '/a\nb', undefined, ['/a'], `/${'a'.repeat(600)}`]) expect(safeReturn(bad)).toBe('/');
  });
});
