// Apart from the client, so the routes that name it do not load openid-client: `serve` loads that
// only when single sign-on is configured.

/** Why a sign-in at the provider did not give an identity; the login page has a text for each. */
export type OidcFailure = 'denied' | 'provider-error' | 'state' | 'invalid' | 'unreachable';

export class OidcFlowError extends Error {
  constructor(
    readonly reason: OidcFailure,
    message: string,
    /** The provider's own error code (access_denied, login_required...), when it sent one. */
    readonly providerError: string | null = null,
  ) {
    super(message);
    this.name = 'OidcFlowError';
  }
}
