/**
 * Who is calling: the resolved identity attached to a request by the authenticate step
 * (spec 5.1, 5.2) and read by every service that applies agency, branch or role rules.
 */
import type { TokenKind } from '../db/schema.ts';

export interface AuthContext {
  userId: number;
  userUuid: string;
  name: string;
  email: string;
  /** null for SysOps, who belong to no agency. */
  agencyId: number | null;
  branchId: number | null;
  roleId: number;
  /** Built-in role code (sysops, admin, agent, contractor, tenant, api) or a custom role's code. */
  roleCode: string;
  roleName: string;
  /** Management level of the role (larger manages smaller). */
  level: number;
  contractorId: number | null;
  tenantId: number | null;
  /** The landlord record of a `landlord` login (docs/landlords.md "Landlord logins"); null otherwise. */
  landlordId: number | null;
  permissions: ReadonlySet<string>;
  /** The auth_tokens row the request presented (bearer token or session). */
  tokenId: number;
  tokenKind: TokenKind;
}

/** What an activity-log entry needs to know about the request that caused it. */
export interface Actor {
  auth: AuthContext | null;
  ip: string;
}

/** True for the platform operators, who see every agency. */
export function isSysOps(auth: AuthContext): boolean {
  return auth.roleCode === 'sysops';
}
