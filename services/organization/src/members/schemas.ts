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
