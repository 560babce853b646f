import { z } from "zod";
import { isoTimestamp } from "@tollgate/kit";

/** better-auth's Member: a user's membership of an organization. */
export const Member = z
  .strictObject({
    id: z.string(),
    organizationId: z.string(),
    userId: z.string(),
    role: z.string().meta({ description: "Comma-separated when the member has several roles" }),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "Member" });

/** A member with what the organization shows of the user. */
export const MemberWithUser = Member.extend({ user: z.strictObject({ id: z.string(), name: z.string(), email: z.string(), image: z.string().nullable() }) });

export const MemberPage = z.strictObject({ members: z.array(MemberWithUser), total: z.int() });

export const MemberRole = z.strictObject({ role: z.string() });

export const RemovedMember = z.strictObject({ member: Member });

/** Whether the caller's role in the organization grants the permissions asked about. */
export const PermissionCheck = z.strictObject({ error: z.null(), success: z.boolean() });

const role = z.union([z.string(), z.array(z.string())]);

export const MemberRemoval = z.object({ memberIdOrEmail: z.string(), organizationId: z.string().optional() });

export const MemberRoleChange = z.object({ role, memberId: z.string(), organizationId: z.string().optional() });

/** An organization named by id or slug (else the active one), and optionally another member's user. */
export const MemberRoleQuery = z.object({ userId: z.string().optional(), organizationId: z.string().optional(), organizationSlug: z.string().optional() });

export const MemberListQuery = z.object({
  limit: z.coerce.number().int().min(0).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  organizationId: z.string().optional(),
  organizationSlug: z.string().optional(),
});

export const LeaveRequest = z.object({ organizationId: z.string() });

export const PermissionQuestion = z.object({
  organizationId: z.string().optional(),
  permissions: z.record(z.string(), z.array(z.string())).optional(),
  permission: z.record(z.string(), z.array(z.string())).optional(),
});
