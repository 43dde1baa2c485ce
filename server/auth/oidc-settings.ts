import { ROLES, type Role } from '../../core/api/auth.js';
import { inertLine } from '../../core/terminal-text.js';
import { isLoopback } from '../plugins/security.js';

/** Single sign-on as `serve` configures it (docs/single-sign-on.md). */
export interface OidcSettings {
  issuer: URL;
  clientId: string;
  /** null: a public client, PKCE alone. */
  clientSecret: string | null;
  /** Shown on the button: "Sign in with {displayName}". */
  displayName: string;
  scopes: string;
  /** Claims tried in order for a new account's name; the subject when none is set. */
  usernameClaims: string[];
  roles: RoleMapping;
}

export interface RoleMapping {
  /** The claim holding the groups (a list of strings, or one string). */
  claim: string;
  /** Members of this group are admins; of `reviewerGroup`, reviewers. */
  adminGroup: string | null;
  reviewerGroup: string | null;
  /** Only members of one of these groups may sign in; empty: everyone the provider signs in. */
  allowedGroups: string[];
  /** The role of everyone else. */
  defaultRole: Role;
}

export class OidcSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OidcSettingsError';
  }
}

/**
 * The issuer as a URL. Plain http only to this machine: anywhere else the code, the tokens and
 * the provider's keys would cross the network readable and changeable by anyone on the path.
 */
export function parseIssuer(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new OidcSettingsError(`--oidc-issuer ${JSON.stringify(value)} is not a URL: give the provider's issuer, e.g. https://login.example.com/realms/team`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OidcSettingsError(`--oidc-issuer ${url.href}: the issuer must be an https:// URL`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new OidcSettingsError(`--oidc-issuer ${url.href}: plain http is allowed only for a provider on this machine (127.0.0.1, ::1, localhost); use the provider's https:// address`);
  }
  if (url.search !== '' || url.hash !== '') throw new OidcSettingsError(`--oidc-issuer ${url.href}: an issuer has no query or fragment`);
  if (url.username !== '' || url.password !== '') throw new OidcSettingsError('--oidc-issuer: put no credentials in the issuer URL; the client secret goes in FLAKEBOARD_OIDC_CLIENT_SECRET');
  return url;
}

export function isLoopbackHost(hostname: string): boolean {
  return isLoopback(hostname.toLowerCase());
}

/** Whether an endpoint the provider announced may be called: https, or http to this machine for a loopback issuer. */
export function endpointAllowed(endpoint: string, issuer: URL): boolean {
  try {
    const url = new URL(endpoint);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && issuer.protocol === 'http:' && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** The address the server is reached at, as people's browsers see it (behind a proxy): its origin. */
export function parsePublicUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new OidcSettingsError(`--public-url ${JSON.stringify(value)} is not a URL: give the address people open, e.g. https://flakeboard.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OidcSettingsError(`--public-url ${url.href}: give an http:// or https:// address`);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new OidcSettingsError(`--public-url ${url.href}: give only the origin (scheme, host and port); flakeboard is served at the root of its address`);
  }
  return url;
}

export function parseRole(value: string, flag: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw new OidcSettingsError(`${flag} must be one of ${ROLES.join(', ')}, not ${JSON.stringify(value)}`);
  return value as Role;
}

/** The groups a claim names: a list of strings, or a single string (Google's `hd`, a one-role claim). */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** The role of a signed-in identity, or null when it may not sign in at all. */
export function roleFor(claims: Record<string, unknown>, mapping: RoleMapping): Role | null {
  const groups = new Set(groupsOf(claims, mapping.claim));
  if (mapping.allowedGroups.length > 0 && !mapping.allowedGroups.some((g) => groups.has(g)) && !(mapping.adminGroup && groups.has(mapping.adminGroup))) return null;
  if (mapping.adminGroup && groups.has(mapping.adminGroup)) return 'admin';
  if (mapping.reviewerGroup && groups.has(mapping.reviewerGroup)) return 'reviewer';
  return mapping.defaultRole;
}

/** Whether the provider's groups own the role (set at every sign-in), or flakeboard's admins do (set once). */
export function providerOwnsRoles(mapping: RoleMapping): boolean {
  return mapping.adminGroup !== null || mapping.reviewerGroup !== null;
}

const NAME_MAX = 64;

/**
 * A new account's name from the first claim that holds one: printable, at most 64 characters.
 * Made inert (core/terminal-text.ts): the name is shown in terminals and pages.
 */
export function usernameFrom(claims: Record<string, unknown>, order: string[], subject: string): string {
  for (const claim of order) {
    const value = claims[claim];
    if (typeof value !== 'string') continue;
    const clean = inertLine(value).trim().slice(0, NAME_MAX);
    if (clean !== '') return clean;
  }
  return inertLine(subject).trim().slice(0, NAME_MAX) || 'user';
}

/** The defaults of docs/single-sign-on.md#options, for what is not given. */
export function oidcSettings(input: { issuer: string; clientId: string; clientSecret?: string | null } & Partial<Omit<OidcSettings, 'issuer' | 'clientId' | 'clientSecret' | 'roles'>> & { roles?: Partial<RoleMapping> }): OidcSettings {
  const clientId = input.clientId.trim();
  if (clientId === '') throw new OidcSettingsError('--oidc-client-id is empty: give the client id the provider shows for flakeboard');
  return {
    issuer: parseIssuer(input.issuer),
    clientId,
    clientSecret: input.clientSecret ? input.clientSecret : null,
    displayName: input.displayName?.trim() || 'single sign-on',
    scopes: input.scopes ?? 'openid profile email',
    usernameClaims: input.usernameClaims ?? ['preferred_username', 'email'],
    roles: {
      claim: input.roles?.claim ?? 'groups',
      adminGroup: input.roles?.adminGroup ?? null,
      reviewerGroup: input.roles?.reviewerGroup ?? null,
      allowedGroups: input.roles?.allowedGroups ?? [],
      defaultRole: input.roles?.defaultRole ?? 'member',
    },
  };
}
