import type { SsoErrorCode } from '../../../../core/api/auth.js';

/**
 * The login page's text for a single sign-on that came back without a session
 * (docs/single-sign-on.md#when-it-fails). Only a fixed code comes back in the address, never the
 * provider's own description: a link could otherwise put any words on this page.
 */
export function ssoFailureText(code: string, providerError: string | null, providerName: string | null): string {
  const name = providerName ?? 'the identity provider';
  switch (code as SsoErrorCode) {
    case 'denied':
      return `Sign-in was cancelled or refused at ${name}.`;
    case 'provider-error':
      return `${capitalise(name)} could not sign you in${providerError && /^[a-z_]{1,64}$/.test(providerError) ? ` (${providerError})` : ''}. Please try again or contact an administrator.`;
    case 'state':
      return 'The sign-in could not be verified: the answer did not belong to the sign-in this browser started. Please try again.';
    case 'expired':
      return 'The sign-in expired or was already used. Please try again.';
    case 'invalid':
      return `The answer from ${name} could not be verified. Please try again or contact an administrator.`;
    case 'unreachable':
      return `${capitalise(name)} could not be reached. Please try again later or contact an administrator.`;
    case 'not-allowed':
      return `Your account at ${name} is not allowed to use flakeboard. Please contact an administrator.`;
    case 'no-account':
      return 'No account could be made for you. Please contact an administrator.';
    default:
      return 'Single sign-on failed. Please try again.';
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
