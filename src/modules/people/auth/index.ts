/**
 * Authentication: login, sessions, tokens and the caller's permissions (spec: authentication; docs/security.md).
 * The module's public door: other modules and the composition root import only this file
 * (docs/architecture.md, module rule).
 */
export { authRoutes } from './auth.routes.ts';
export { ssoRoutes } from './sso.routes.ts';
export { findUserByEmail, revokeLogin, revokeUserTokens } from './auth.repository.ts';
export { PermissionsData } from './auth.schemas.ts';
export { LIFETIMES, SESSION_COOKIE, authenticate, cachedAccountOf, createTokenCache, gatheredTokenLookup, type LoginGuard, type TokenLookupCache } from './auth.service.ts';
export { resolvedPermissions } from './me.service.ts';
export { countTotpSecretsForBackfill, sealTotpSecretsBatch } from './two-factor.service.ts';
