import {
  clearActiveOrganization,
  resolveApiKey,
  getSessionContext,
  resolveSession,
  sessionChanged,
  sessionRevoked,
  setActiveOrganization,
  setPassword,
  userBanned,
  userCreated,
  userDeleted,
  userUpdated,
} from "./auth.js";
import { accessTokenRevoked, billingEvents, resolveAccessToken, resolveCustomerSession } from "./billing.js";
import { customerMailRequested } from "./customer-mail.js";
import type { EventDefinition, EventEnvelope } from "./envelope.js";
import { checkOrganizationPermission, createOrganizationForUser, invitationCreated, memberAdded, memberRemoved, memberUpdated, organizationCreated, organizationDeleted, organizationUpdated } from "./organization.js";
import type { RequestDefinition } from "./requests.js";
import type { BusNames } from "./subjects.js";
import { webhookEndpointDisabled } from "./webhooks.js";

/**
 * What one process may say and hear on the bus. Each process's NATS user is allowed exactly this
 * (launcher/src/nats-authorization.ts makes the server's permissions from it), and the kit holds each
 * process to it wherever NATS does not check, so code that needs more fails in tests, not in production.
 */
export interface BusAccess {
  /** Event families it owns (the first word of an event type): it alone publishes their events. */
  readonly events: readonly string[];
  /** Requests it answers. */
  readonly serves: readonly RequestDefinition[];
  /** Requests it sends. */
  readonly calls: readonly RequestDefinition[];
  /** Its durable consumers, by name, with the events each handles. */
  readonly consumers: Readonly<Record<string, readonly EventDefinition[]>>;
}

const users = [userCreated, userUpdated, userDeleted];
/** What a service's copy of the organizations' memberships follows (the kit's membershipConsumer). */
export const MEMBERSHIP_EVENTS: readonly EventDefinition[] = [memberAdded, memberUpdated, memberRemoved, organizationCreated, organizationUpdated, organizationDeleted];

export const BUS_ACCESS = {
  auth: {
    events: ["user", "session"],
    serves: [resolveSession, setPassword, getSessionContext, setActiveOrganization, clearActiveOrganization, resolveApiKey],
    calls: [checkOrganizationPermission],
    consumers: { "auth-invitation-mail": [invitationCreated], "auth-webhook-alert-mail": [webhookEndpointDisabled], "auth-customer-mail": [customerMailRequested] },
  },
  organization: {
    events: ["organization", "member", "invitation", "team"],
    serves: [createOrganizationForUser, checkOrganizationPermission],
    calls: [getSessionContext, setActiveOrganization, clearActiveOrganization],
    consumers: { "organization-users": users },
  },
  billing: {
    events: ["billing", "access_token", "customer_mail"],
    serves: [resolveAccessToken, resolveCustomerSession],
    calls: [createOrganizationForUser],
    consumers: {
      "billing-sellers": [organizationCreated, organizationUpdated, organizationDeleted],
      "billing-memberships": MEMBERSHIP_EVENTS,
      "billing-people": users,
      "billing-linked-seats": [memberAdded, memberRemoved, organizationDeleted],
      "billing-customer-mails": [billingEvents["order.paid"], billingEvents["subscription.canceled"], billingEvents["subscription.uncanceled"], billingEvents["subscription.revoked"], billingEvents["subscription.past_due"], billingEvents["subscription.paused"], billingEvents["subscription.resumed"], billingEvents["refund.updated"]],
      "billing-credit-notes": [billingEvents["refund.updated"]],
      "billing-seat-holders": [billingEvents["member.deleted"]],
    },
  },
  "webhook-dispatcher": {
    events: ["webhook_endpoint"],
    serves: [],
    calls: [],
    consumers: { "webhook-dispatcher-memberships": MEMBERSHIP_EVENTS, "webhook-dispatcher-billing-events": Object.values(billingEvents) },
  },
  gateway: {
    events: [],
    serves: [],
    calls: [resolveSession, resolveAccessToken, resolveCustomerSession, resolveApiKey],
    consumers: { "gateway-session-cache": [sessionRevoked, userBanned, userUpdated, sessionChanged, userDeleted, accessTokenRevoked] },
  },
} as const satisfies Record<string, BusAccess>;

export type BusProcess = keyof typeof BUS_ACCESS;
export const BUS_PROCESSES = Object.keys(BUS_ACCESS) as BusProcess[];

/** The declared access of a process; none for one the declaration does not name (a test's, a bench's). */
export function busAccessOf(process: string): BusAccess | undefined {
  return Object.hasOwn(BUS_ACCESS, process) ? BUS_ACCESS[process as BusProcess] : undefined;
}

/** The process that alone may publish events of this type; none for a type outside every family (a test's own). */
export function ownerOfEvent(type: string): BusProcess | undefined {
  const family = type.slice(0, type.indexOf("."));
  return BUS_PROCESSES.find((process) => (BUS_ACCESS[process].events as readonly string[]).includes(family));
}

/**
 * Why an event cannot be believed, or null when it can: an owned type must arrive on its own subject,
 * which only its owner's NATS user may publish to, and name its owner as its source. A type of no
 * family (a test's own) is not judged.
 */
export function eventProvenanceProblem(names: BusNames, subject: string, envelope: Pick<EventEnvelope, "type" | "source">): string | null {
  const owner = ownerOfEvent(envelope.type);
  if (!owner) return null;
  const expected = names.eventSubject(envelope.type);
  if (subject !== expected) return `${envelope.type} is ${owner}'s event and arrived on ${subject}, not on ${owner}'s subject ${expected}`;
  if (envelope.source !== owner) return `${envelope.type} is ${owner}'s event but names ${envelope.source} as its source`;
  return null;
}
