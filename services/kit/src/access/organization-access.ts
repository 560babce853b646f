import type { IdentityClaims } from "@tollgate/proto";
import type { Knex } from "../db/connection.js";
import { HttpError, polarErrors, ValidationError } from "../http/errors.js";
import type { MembershipRow, OrganizationRequirementRow } from "./memberships.js";
import { meetsTwoFactorRequirement, TWO_FACTOR_REQUIRED_MESSAGE } from "./two-factor.js";

type UserIdentity = Extract<IdentityClaims, { kind: "user" }>;

/** A scope as Polar names them: `<resource>:read` or `<resource>:write`. */
export type Scope = `${string}:${"read" | "write"}`;

/** Roles whose members may change things; other members may only read. */
const WRITER_ROLES = new Set(["owner", "admin"]);

const { codes } = polarErrors;

/** 401 with the challenge RFC 6750 asks for: the caller must authenticate. */
export const unauthenticated = () =>
  new HttpError(401, codes.unauthorized, "Authentication required: send an organization access token as a bearer token, or sign in.", {
    "www-authenticate": 'Bearer realm="tollgate"',
  });

/** 403 for a member of an organization that requires two-factor authentication their session lacks. */
export const twoFactorRequired = () => new HttpError(403, codes.forbidden, TWO_FACTOR_REQUIRED_MESSAGE);

/**
 * Who may act on which organization, under Polar's scopes. An organization access token reaches its
 * own organization, with its scopes (a write scope also reads). A signed-in user reaches the
 * organizations they are a member of: any member reads, owners and admins write; an organization
 * that requires two-factor authentication only while their session has it.
 */
export class OrganizationAccess {
  constructor(private readonly db: Knex) {}

  /** The organizations the caller may act on with `scope`; throws 401/403 when there can be none. */
  async organizationIds(identity: IdentityClaims, scope: Scope): Promise<string[]> {
    if (identity.kind === "organization_token") {
      if (!grants(identity.scopes, scope)) {
        throw new HttpError(403, codes.forbidden, `Missing required scope: have=${identity.scopes.join(",")} requires=${scope}`);
      }
      return [identity.organization_id];
    }
    if (identity.kind !== "user") throw unauthenticated();
    return this.userOrganizationIds(identity, scope);
  }

  /** Whether the caller may act on this organization with `scope` (false for one they cannot see: answer 404). */
  async allows(identity: IdentityClaims, scope: Scope, organizationId: string): Promise<boolean> {
    const reachable = identity.kind === "user" ? await this.userOrganizationIds(identity, scope, organizationId) : await this.organizationIds(identity, scope);
    return reachable.includes(organizationId);
  }

  /** Like {@link allows}, but a token without the scope is simply not allowed (for what to show, not whether to answer). */
  async may(identity: IdentityClaims, scope: Scope, organizationId: string): Promise<boolean> {
    if (identity.kind === "organization_token" && !grants(identity.scopes, scope)) return false;
    return this.allows(identity, scope, organizationId);
  }

  /**
   * The scopes of `requested` the caller does not hold: a token hands on only what it has, so one
   * that may manage tokens cannot mint itself more. A signed-in owner or admin holds every scope.
   */
  scopesBeyondCaller(identity: IdentityClaims, requested: readonly Scope[]): Scope[] {
    return identity.kind === "organization_token" ? requested.filter((scope) => !grants(identity.scopes, scope)) : [];
  }

  /** The organizations the user owns (better-auth's `owner` role): those they may speak for to another organization. */
  async ownedBy(userId: string): Promise<string[]> {
    const memberships = await this.db<MembershipRow>("memberships").where({ user_id: userId });
    return memberships.filter((membership) => membership.role.split(",").some((name) => name.trim() === "owner")).map((membership) => membership.organization_id);
  }

  /** Everyone in the organization, by user id (a stable order). */
  async members(organizationId: string): Promise<string[]> {
    const members = await this.db<MembershipRow>("memberships").where({ organization_id: organizationId }).orderBy("user_id").select("user_id");
    return members.map((member) => member.user_id);
  }

  /** The users who may change the organization's things (its owners and admins): those to tell when something needs them. */
  async managers(organizationId: string): Promise<string[]> {
    const members = await this.db<MembershipRow>("memberships").where({ organization_id: organizationId }).select("user_id", "role");
    return members.filter((member) => isWriter(member.role)).map((member) => member.user_id);
  }

  /**
   * The organization a new resource belongs to: the one named, which the caller must reach, or,
   * when none is named, the caller's only one (a token's own). 422 when it cannot be told.
   */
  async organizationFor(identity: IdentityClaims, scope: Scope, named: string | null | undefined): Promise<string> {
    const reachable = identity.kind === "user" ? await this.userOrganizationIds(identity, scope, named ?? undefined) : await this.organizationIds(identity, scope);
    if (named) {
      if (!reachable.includes(named)) throw organizationNotReachable(named);
      return named;
    }
    const [only, ...others] = reachable;
    if (!only || others.length > 0) {
      throw new ValidationError([{ location: "body", path: ["organization_id"], message: "Field required: it cannot be told from your credentials", code: "missing" }]);
    }
    return only;
  }

  /**
   * The organizations a signed-in user reaches with `scope`. Those that require two-factor their
   * session lacks are left out of what they see across organizations, but refused with 403 when
   * named, or when they are all the user has: a member is told why rather than shown nothing.
   */
  private async userOrganizationIds(identity: UserIdentity, scope: Scope, named?: string): Promise<string[]> {
    const memberships = await this.db<MembershipRow>("memberships")
      .leftJoin<OrganizationRequirementRow>("organization_requirements", "organization_requirements.organization_id", "memberships.organization_id")
      .where("memberships.user_id", identity.user_id)
      .select<(MembershipRow & { require_two_factor: boolean | null })[]>("memberships.*", "organization_requirements.require_two_factor");
    const admitted = memberships.filter((membership) => meetsTwoFactorRequirement(membership.require_two_factor === true, identity.two_factor));
    const refusedNamed = named !== undefined && memberships.some((membership) => membership.organization_id === named) && !admitted.some((membership) => membership.organization_id === named);
    if (refusedNamed || (admitted.length === 0 && memberships.length > 0)) throw twoFactorRequired();
    return admitted.filter((membership) => !scope.endsWith(":write") || isWriter(membership.role)).map((membership) => membership.organization_id);
  }
}

/** Whether better-auth's comma-separated roles include one that may change things. */
const isWriter = (role: string) => role.split(",").some((name) => WRITER_ROLES.has(name.trim()));

/** A token's scopes cover `scope`: the scope itself, or the write scope of a read. */
const grants = (scopes: string[], scope: Scope) => scopes.includes(scope) || (scope.endsWith(":read") && scopes.includes(scope.replace(/:read$/, ":write")));

/** An organization the caller cannot reach is one they cannot see. */
const organizationNotReachable = (id: string) => new HttpError(404, codes.not_found, `Organization ${id} not found`);
