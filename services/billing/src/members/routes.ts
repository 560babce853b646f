import { z } from "zod";
import { defineEndpoint, notFound, pageJson, reachable, type Endpoint } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";
import { findCustomer, findCustomerByExternalId, reachableByExternalId, type CustomerRow } from "../customers/service.js";
import { memberJson } from "./output.js";
import { CustomerMemberListQuery, Member, MemberCreate, MemberCreateFromCustomer, MemberCustomerQuery, MemberList, MemberListQuery, MemberUpdate } from "./schemas.js";
import { changeMember, createMember, customerOfQuery, deleteMember, findMember, findMemberByExternalId, listMembers, type MemberRow } from "./service.js";
import type { Parts } from "../parts.js";

const TAG = "members";
type MemberScope = "members:read" | "members:write";
type FindMember = (identity: IdentityClaims, scope: MemberScope, params: Record<string, string>, query: z.output<typeof MemberCustomerQuery> | undefined) => Promise<MemberRow>;

const customerId = z.object({ id: z.string() });
const customerExternalId = z.object({ externalId: z.string() });
const memberOfCustomerId = z.object({ id: z.string(), memberId: z.string() });
const memberOfExternalIds = z.object({ externalId: z.string(), memberExternalId: z.string() });

/** Polar's one answer for a member the caller cannot reach, whether the member or its customer is missing. */
const found = (member: MemberRow | undefined) => {
  if (!member) throw notFound("Member");
  return member;
};

/**
 * A customer's members, under the customer (`/v1/customers/{id}/members`, by Tollgate's id or the
 * seller's external ids), and 0.47's `/v1/members/` with the customer in the body or the query.
 */
export function memberEndpoints(parts: Pick<Parts, "db" | "units" | "access">): Endpoint[] {
  const { db, access } = parts;
  const customerById = async (identity: IdentityClaims, scope: MemberScope, id: string) => reachable(access, identity, scope, await findCustomer(db, id), "Customer");
  const organizationIds = (identity: IdentityClaims, scope: MemberScope) => access.organizationIds(identity, scope);
  const memberById = async (identity: IdentityClaims, scope: MemberScope, id: string) => found(await findMember(db, await organizationIds(identity, scope), id));
  const memberUnder = async (identity: IdentityClaims, scope: MemberScope, { id, memberId }: z.output<typeof memberOfCustomerId>) => {
    const member = await memberById(identity, scope, memberId);
    return found(member.customer_id === id ? member : undefined);
  };
  const memberIn = async (customer: CustomerRow | undefined, externalId: string) => found(customer && (await findMemberByExternalId(db, customer.id, externalId)));
  const memberUnderExternal = async (identity: IdentityClaims, scope: MemberScope, { externalId, memberExternalId }: z.output<typeof memberOfExternalIds>) =>
    memberIn(await findCustomerByExternalId(db, await organizationIds(identity, scope), externalId), memberExternalId);
  const memberByQuery = async (identity: IdentityClaims, scope: MemberScope, externalId: string, query: z.output<typeof MemberCustomerQuery>) => {
    const named = customerOfQuery(query);
    const ids = await organizationIds(identity, scope);
    const customer = "customer_id" in named ? await findCustomer(db, named.customer_id) : await findCustomerByExternalId(db, ids, named.external_customer_id);
    return memberIn(customer && ids.includes(customer.organization_id) ? customer : undefined, externalId);
  };
  const page = async (filter: { organizationIds: string[]; customerId?: string | undefined; externalCustomerId?: string | undefined }, query: z.output<typeof CustomerMemberListQuery>) => {
    const { rows, total } = await listMembers(db, { ...filter, role: query.role }, { ...query, sort: query.sorting });
    return pageJson(rows.map(memberJson), total, query.limit);
  };

  /** The read, change and removal of one member, found by `find` from the path (and, for 0.47's external ids, the query). */
  const oneMember = (path: string, params: z.ZodObject<Record<string, z.ZodString>>, query: typeof MemberCustomerQuery | undefined, find: FindMember, summary: string) => [
    defineEndpoint(path, { method: "GET", params, query, response: Member, summary: `Get a member${summary}`, tag: TAG }, async ({ params, query, identity }) => memberJson(await find(identity, "members:read", params, query))),
    defineEndpoint(path, { method: "PATCH", params, query, body: MemberUpdate, response: Member, summary: `Update a member${summary}`, tag: TAG }, async ({ params, query, body, identity }) =>
      memberJson(await changeMember(parts, await find(identity, "members:write", params, query), body)),
    ),
    defineEndpoint(path, { method: "DELETE", status: 204, params, query, summary: `Delete a member${summary}`, tag: TAG }, async ({ params, query, identity }) => {
      await deleteMember(parts, await find(identity, "members:write", params, query));
    }),
  ];

  return [
    defineEndpoint("/v1/customers/external/:externalId/members", { method: "GET", params: customerExternalId, query: CustomerMemberListQuery, response: MemberList, summary: "List the members of a customer by external ID", tag: TAG }, async ({ params, query, identity }) => {
      const customer = await reachableByExternalId(db, access, identity, "members:read", params.externalId);
      return page({ organizationIds: [customer.organization_id], customerId: customer.id }, query);
    }),
    defineEndpoint("/v1/customers/external/:externalId/members", { method: "POST", status: 201, params: customerExternalId, body: MemberCreateFromCustomer, response: Member, summary: "Add a member to a customer by external ID", tag: TAG }, async ({ params, body, identity }) =>
      memberJson(await createMember(parts, await reachableByExternalId(db, access, identity, "members:write", params.externalId), body)),
    ),
    ...oneMember("/v1/customers/external/:externalId/members/:memberExternalId", memberOfExternalIds, undefined, (identity, scope, params) => memberUnderExternal(identity, scope, memberOfExternalIds.parse(params)), " by external IDs"),

    defineEndpoint("/v1/customers/:id/members", { method: "GET", params: customerId, query: CustomerMemberListQuery, response: MemberList, summary: "List the members of a customer", tag: TAG }, async ({ params, query, identity }) => {
      const customer = await customerById(identity, "members:read", params.id);
      return page({ organizationIds: [customer.organization_id], customerId: customer.id }, query);
    }),
    defineEndpoint("/v1/customers/:id/members", { method: "POST", status: 201, params: customerId, body: MemberCreateFromCustomer, response: Member, summary: "Add a member to a customer", tag: TAG }, async ({ params, body, identity }) =>
      memberJson(await createMember(parts, await customerById(identity, "members:write", params.id), body)),
    ),
    ...oneMember("/v1/customers/:id/members/:memberId", memberOfCustomerId, undefined, (identity, scope, params) => memberUnder(identity, scope, memberOfCustomerId.parse(params)), ""),

    // 0.47's members, with the customer in the query or the body.
    defineEndpoint("/v1/members/", { method: "GET", query: MemberListQuery, response: MemberList, summary: "List members", tag: TAG }, async ({ query, identity }) => {
      return page({ organizationIds: await organizationIds(identity, "members:read"), customerId: query.customer_id, externalCustomerId: query.external_customer_id }, query);
    }),
    defineEndpoint("/v1/members/", { method: "POST", status: 201, body: MemberCreate, response: Member, summary: "Add a member to a customer", tag: TAG }, async ({ body, identity }) =>
      memberJson(await createMember(parts, await customerById(identity, "members:write", body.customer_id), body)),
    ),
    ...oneMember("/v1/members/external/:externalId", customerExternalId, MemberCustomerQuery, (identity, scope, params, query) => memberByQuery(identity, scope, customerExternalId.parse(params).externalId, query ?? {}), " by external ID"),
    ...oneMember("/v1/members/:id", customerId, undefined, (identity, scope, params) => memberById(identity, scope, customerId.parse(params).id), " by ID"),
  ];
}
