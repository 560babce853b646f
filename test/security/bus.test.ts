import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBus, type BusConnection } from "@tollgate/kit";
import { PrivateNatsServer } from "@tollgate/kit/testing";
import { BUS_PROCESSES, memberAdded, type EventEnvelope } from "@tollgate/proto";
import { NATS_AUTHORIZATION_FILE, natsPasswordVariable } from "../../launcher/src/nats-authorization.js";
import { startBillingStack, type BillingStack, type Seller } from "../stacks/billing.js";
import { signedUp, type Person } from "../stacks/people.js";
import { rawRequest } from "./attacker.js";

/**
 * Issue 28, #4: every process shared one NATS user that could publish anything, and a `member.added`
 * published on the bus made a user an owner of another organization. Now each process is a NATS user
 * of its own (k8s/components/nats/authorization.conf, as compose and Kubernetes run it), allowed to
 * publish only its own events; and consumers believe an event only on its owner's subject, which is
 * what still stands on a NATS without users (`npm start`'s).
 */

/** What a compromised (or mistaken) billing would tell billing's own membership copy: the attacker owns the victim's organization. */
function forgedOwnership(victim: Seller, attacker: Person): EventEnvelope {
  return {
    id: randomUUID(),
    type: memberAdded.type,
    occurred_at: new Date().toISOString(),
    source: "organization",
    data: { id: randomUUID(), organization_id: victim.organizationId, user_id: attacker.id, role: "owner" },
  };
}

const publish = (bus: BusConnection, type: string, event: EventEnvelope) => bus.js.publish(bus.names.eventSubject(type), JSON.stringify(event), { msgID: event.id });

/** What billing's membership copy set aside, once it has. */
async function setAside(stack: BillingStack, event: EventEnvelope): Promise<{ consumer: string; error: string }[]> {
  const letters = () => stack.billing.context.db("dead_letters").whereRaw("payload::jsonb->>'id' = ?", [event.id]).orderBy("consumer").select<{ consumer: string; error: string }[]>("consumer", "error");
  // Every billing consumer that follows member.added sets it aside on its own.
  await expect.poll(async () => (await letters()).length, { timeout: 15_000 }).toBe(MEMBER_ADDED_CONSUMERS.length);
  return letters();
}

/** Billing's consumers of member.added: its membership projection and the seats that follow a buyer's organization. */
const MEMBER_ADDED_CONSUMERS = ["billing-linked-seats", "billing-memberships"];

/** The attacker tries what an owner may: minting an access token for the organization. */
const mintsToken = (stack: BillingStack, attacker: Person, organizationId: string) =>
  rawRequest(stack.gateway.url, "/v1/organization-access-tokens/", { browser: attacker.fetch, body: { organization_id: organizationId, comment: "mine now", scopes: ["products:write"] } });

describe("#4 on a NATS with a user per process, as compose and Kubernetes run it", () => {
  let nats: PrivateNatsServer;
  let stack: BillingStack;
  const passwords = Object.fromEntries(BUS_PROCESSES.map((process) => [natsPasswordVariable(process), `n${randomBytes(16).toString("hex")}`]));
  const asUser = (process: (typeof BUS_PROCESSES)[number]) => ({ NATS_URL: nats.url, NATS_PREFIX: "tollgate", NATS_PASSWORD: passwords[natsPasswordVariable(process)] ?? "" });

  beforeAll(async () => {
    nats = await PrivateNatsServer.start({ configFile: NATS_AUTHORIZATION_FILE, env: passwords });
    stack = await startBillingStack({}, {}, {}, asUser);
  });

  afterAll(async () => {
    await stack?.stop();
    await nats?.stop();
  });

  it("refuses billing's user a member.added on organization's subject, and sets aside one billing publishes on its own", async () => {
    // Everything the stack does crosses the bus as its own users: an organization made (auth asked to
    // set it active, its owner's membership announced to billing), a token minted and honoured.
    const victim = await stack.seller();
    expect((await victim.polar.products.list({})).result.items).toEqual([]);
    const attacker = await signedUp(stack, "bus.attacker@example.com", { verified: false });

    const billing = await connectBus({ url: nats.url, password: passwords.BILLING_NATS_PASSWORD, prefix: "tollgate", name: "billing" });
    try {
      await expect(publish(billing, memberAdded.type, forgedOwnership(victim, attacker))).rejects.toThrow('Permissions Violation for Publish to "tollgate.events.member.added"');

      const ownSubject = forgedOwnership(victim, attacker);
      await publish(billing, "billing.member.added", ownSubject);
      expect(await setAside(stack, ownSubject)).toEqual(
        MEMBER_ADDED_CONSUMERS.map((consumer) => ({
          consumer,
          error: "member.added is organization's event and arrived on tollgate.events.billing.member.added, not on organization's subject tollgate.events.member.added",
        })),
      );
      expect((await mintsToken(stack, attacker, victim.organizationId)).status).toBe(404);
    } finally {
      await billing.nc.close();
    }
  });
});

describe("#4 on a NATS without users, as `npm start` runs it", () => {
  let stack: BillingStack;

  beforeAll(async () => {
    stack = await startBillingStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("sets aside, never applies, a member.added that did not come on organization's subject", async () => {
    const victim = await stack.seller();
    const attacker = await signedUp(stack, "dev.bus.attacker@example.com", { verified: false });
    const anyone = await connectBus({ url: stack.environment.natsUrl, prefix: stack.environment.natsPrefix, name: "bus-attacker" });
    try {
      const forged = forgedOwnership(victim, attacker);
      await publish(anyone, "billing.member.added", forged);
      for (const letter of await setAside(stack, forged)) expect(letter.error).toMatch(/^member\.added is organization's event and arrived on .*\.events\.billing\.member\.added/);
      expect((await mintsToken(stack, attacker, victim.organizationId)).status).toBe(404);
    } finally {
      await anyone.nc.close();
    }
  });
});
