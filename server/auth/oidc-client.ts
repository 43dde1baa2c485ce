import * as client from 'openid-client';
import { endpointAllowed, type OidcSettings } from './oidc-settings.js';
import { OidcFlowError, type OidcFailure } from './oidc-flow-error.js';

export { OidcFlowError, type OidcFailure };

export interface AuthorizationStart {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface Identity {
  /** The ID token's `iss`, checked by openid-client against the discovered issuer. */
  issuer: string;
  subject: string;
  /** The ID token's claims, completed by the UserInfo endpoint's where the token lacks one. */
  claims: Record<string, unknown>;
}

/** A failed discovery is tried again after this long, not at every click. */
const RETRY_DISCOVERY_MS = 30_000;

/**
 * The relying party: openid-client does the protocol (discovery, PKCE, state, nonce, the code
 * exchange, the ID token's signature, issuer, audience, expiry and nonce); this holds the
 * settings and the discovered provider, found at the first sign-in (or `warm()` at start) so a
 * provider that is down when the server starts does not keep it from starting.
 */
export class OidcClient {
  private config: Promise<client.Configuration> | null = null;
  private failedAt = 0;

  constructor(private readonly settings: OidcSettings, private readonly now: () => number = Date.now) {}

  /** Discovers the provider now; the error says why it cannot be used. */
  async warm(): Promise<void> {
    await this.configuration();
  }

  private configuration(): Promise<client.Configuration> {
    if (this.config && !(this.failedAt > 0 && this.now() - this.failedAt > RETRY_DISCOVERY_MS)) return this.config;
    this.failedAt = 0;
    const attempt = this.discover();
    attempt.catch(() => {
      this.failedAt = this.now();
    });
    this.config = attempt;
    return attempt;
  }

  private async discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    const insecure = issuer.protocol === 'http:';
    let config: client.Configuration;
    try {
      config = await client.discovery(issuer, clientId, clientSecret ?? undefined, undefined, { timeout: 10, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) });
    } catch (error) {
      throw new OidcFlowError('unreachable', `could not discover the OpenID provider at ${issuer.href}: ${(error as Error).message}`);
    }
    const metadata = config.serverMetadata();
    // allowInsecureRequests is for a provider on this machine: what it announces must stay here too.
    for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri'] as const) {
      const endpoint = metadata[key];
      if (endpoint !== undefined && !endpointAllowed(endpoint, issuer)) throw new OidcFlowError('unreachable', `the OpenID provider at ${issuer.href} announces its ${key} at ${endpoint}: only https, or http on this machine, is used`);
    }
    const auth = clientSecret === null ? client.None() : (metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic']).includes('client_secret_basic') ? client.ClientSecretBasic(clientSecret) : client.ClientSecretPost(clientSecret);
    const configured = new client.Configuration(metadata, clientId, clientSecret ?? undefined, auth);
    if (insecure) client.allowInsecureRequests(configured);
    return configured;
  }

  /** A new authorization request with its own state, nonce and PKCE verifier. */
  async start(redirectUri: string): Promise<AuthorizationStart> {
    const config = await this.configuration();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /**
   * The provider's answer at the callback, checked against the flow it belongs to, exchanged for
   * tokens, and the ID token validated. `callbackUrl` is the redirect URI the flow was started
   * with plus the query the browser brought.
   */
  async finish(callbackUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<Identity> {
    const config = await this.configuration();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true });
    } catch (error) {
      // openid-client wraps the protocol's errors: the reason is in the cause's message.
      const cause = (error as { cause?: unknown }).cause;
      const message = `${(error as Error).message}${cause instanceof Error ? `: ${cause.message}` : ''}`;
      // The state is checked before the provider's error: an error sent to someone else's callback is not theirs to show.
      if (/"state"/.test(message)) throw new OidcFlowError('state', `the answer does not belong to this sign-in: ${message}`);
      if (error instanceof client.AuthorizationResponseError) {
        const code = providerCode(error.error);
        throw new OidcFlowError(code === 'access_denied' ? 'denied' : 'provider-error', `the provider answered ${code}: ${error.error_description ?? ''}`.slice(0, 300), code);
      }
      if (error instanceof client.ResponseBodyError) throw new OidcFlowError('provider-error', `the provider refused the code: ${message}`, providerCode(error.error));
      if (error instanceof TypeError || (error as { code?: string }).code === 'OAUTH_TIMEOUT') throw new OidcFlowError('unreachable', `the provider could not be reached: ${message}`);
      throw new OidcFlowError('invalid', `the provider's answer was not accepted: ${message}`);
    }
    const idToken = tokens.claims();
    if (!idToken) throw new OidcFlowError('invalid', 'the provider sent no ID token');
    const claims: Record<string, unknown> = { ...idToken };
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
        // The ID token wins where both say something: it is signed; UserInfo only fills gaps.
        for (const [key, value] of Object.entries(info)) if (!(key in claims)) claims[key] = value;
      } catch {
        // Names and groups may then be missing: the account gets fewer rights, never more.
      }
    }
    return { issuer: idToken.iss, subject: idToken.sub, claims };
  }
}

/** An OAuth error code as it may be shown (RFC 6749's codes are lower case and underscores). */
function providerCode(code: string): string {
  return /^[a-z_]{1,64}$/.test(code) ? code : 'unknown';
}
