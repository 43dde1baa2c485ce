import { describe, expect, it } from 'vitest';
import { ssoFailureText } from './sso-messages.js';

describe('ssoFailureText', () => {
  it('names the provider and the reason', () => {
    expect(ssoFailureText('denied', 'access_denied', 'Okta')).toBe('Sign-in was cancelled or refused at Okta.');
    expect(ssoFailureText('state', null, 'Okta')).toMatch(/^The sign-in could not be verified/);
    expect(ssoFailureText('unreachable', null, null)).toBe('The identity provider could not be reached. Please try again later or contact an administrator.');
    expect(ssoFailureText('provider-error', 'login_required', 'Keycloak')).toBe('Keycloak could not sign you in (login_required). Please try again or contact an administrator.');
  });

  it('shows no text the address could carry in', () => {
    expect(ssoFailureText('provider-error', 'Call 555-0100 to unlock <b>now</b>', 'Okta')).toBe('Okta could not sign you in. Please try again or contact an administrator.');
    expect(ssoFailureText('<script>alert(1)</script>', null, 'Okta')).toBe('Single sign-on failed. Please try again.');
  });
});
