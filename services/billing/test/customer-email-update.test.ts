import { describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-10";
import { readMailbox, type MailboxEntry } from "../../../test/stacks/dev-mailbox.js";
import { announced, useShop } from "../../../test/stacks/purchases.js";
import type { BillingStack, Seller } from "../../../test/stacks/billing.js";

let stack: BillingStack;
let shop: Seller;

useShop((opened) => ({ stack, shop } = opened));

let customers = 0;

/** A customer of the shop (in `locale`), and SDK 1.x as their portal uses it, with a customer session. */
async function customerInPortal(locale = "en") {
  customers += 1;
  const email = `buyer${customers}-${Date.now()}@example.com`;
  const customer = await shop.polar.customers.create({ email, locale });
  const session = await shop.polar.customerSessions.create({ customerId: customer.id });
  return { customer: { id: customer.id, email }, portal: createPolar({ accessToken: session.token, baseUrl: stack.gateway.url }) };
}

/** The newest mail to `to`, once the mailer has it. */
async function mailTo(to: string): Promise<MailboxEntry> {
  await expect.poll(async () => (await readMailbox(stack)).some((mail) => mail.to === to), { timeout: 10_000 }).toBe(true);
  const mail = (await readMailbox(stack)).find((entry) => entry.to === to);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

/** The token in the link of the newest mail to `to`. */
async function tokenMailedTo(to: string): Promise<string> {
  const link = (await mailTo(to)).links.find((candidate) => candidate.includes("email_update_token=")) ?? "";
  return new URL(link).searchParams.get("email_update_token") ?? "";
}

describe("a customer changing their e-mail in the portal", () => {
  it("confirms the new address from a link mailed to it in their language, then reads it back with a new session", async () => {
    const { customer, portal } = await customerInPortal("de");
    const newEmail = `moved-${Date.now()}@example.com`;
    await portal.customerPortal.customers.requestEmailUpdate({ email: newEmail });

    const mail = await mailTo(newEmail);
    expect(mail.subject).toMatch(/^Bestätigen Sie Ihre neue E-Mail-Adresse für /);
    const token = await tokenMailedTo(newEmail);
    expect(token).toMatch(/^polar_cev_/);
    // Nothing changes until the link is followed.
    expect((await shop.polar.customers.get({ id: customer.id })).email).toBe(customer.email);

    await expect(portal.customerPortal.customers.checkEmailUpdate({ token })).resolves.toBeUndefined();
    const anonymousCheck = await fetch(`${stack.gateway.url}/v1/customer-portal/customers/me/email-update/check?token=${token}`);
    expect(anonymousCheck.status).toBe(204);

    const verified = await portal.customerPortal.customers.verifyEmailUpdate({ token });
    expect(verified.token).toMatch(/^polar_cst_/);
    const renewed = createPolar({ accessToken: verified.token, baseUrl: stack.gateway.url });
    expect(await renewed.customerPortal.customers.get()).toMatchObject({ id: customer.id, email: newEmail, email_verified: true });
    expect((await shop.polar.customers.get({ id: customer.id })).email).toBe(newEmail);
    // An individual's owner member follows their address.
    expect((await shop.polar.members.listMembers({ customerId: customer.id })).result.items.map((member) => member.email)).toEqual([newEmail]);
    await expect.poll(async () => (await announced(stack, "customer.updated", customer.id)).map((payload) => payload.email)).toContain(newEmail);

    // The token was used up.
    await expect(renewed.customerPortal.customers.checkEmailUpdate({ token })).rejects.toMatchObject({ statusCode: 401 });
    await expect(renewed.customerPortal.customers.verifyEmailUpdate({ token })).rejects.toMatchObject({ statusCode: 401, error: { error: "InvalidCustomerEmailUpdate" } });
  });

  it("refuses an unknown token, an expired one and one replaced by a newer request", async () => {
    const { portal } = await customerInPortal();
    await expect(portal.customerPortal.customers.checkEmailUpdate({ token: "polar_cev_nothing" })).rejects.toMatchObject({ statusCode: 401 });
    await expect(portal.customerPortal.customers.verifyEmailUpdate({ token: "polar_cev_nothing" })).rejects.toMatchObject({ statusCode: 401 });

    const first = `first-${Date.now()}@example.com`;
    await portal.customerPortal.customers.requestEmailUpdate({ email: first });
    const replaced = await tokenMailedTo(first);
    const second = `second-${Date.now()}@example.com`;
    await portal.customerPortal.customers.requestEmailUpdate({ email: second });
    const expiring = await tokenMailedTo(second);
    await expect(portal.customerPortal.customers.verifyEmailUpdate({ token: replaced })).rejects.toMatchObject({ statusCode: 401 });

    await portal.customerPortal.customers.checkEmailUpdate({ token: expiring });
    // Half an hour on, as Polar's tokens live.
    await stack.billing.context.db("customer_email_verifications").update({ expires_at: new Date(Date.now() - 1_000) });
    await expect(portal.customerPortal.customers.checkEmailUpdate({ token: expiring })).rejects.toMatchObject({ statusCode: 401 });
    await expect(portal.customerPortal.customers.verifyEmailUpdate({ token: expiring })).rejects.toMatchObject({ statusCode: 401 });
  });

  it("refuses an address another customer of the seller has, the customer's own, and any change where the seller turned it off", async () => {
    const { customer, portal } = await customerInPortal();
    const { customer: other } = await customerInPortal();
    await expect(portal.customerPortal.customers.requestEmailUpdate({ email: customer.email })).rejects.toMatchObject({ statusCode: 422 });

    await portal.customerPortal.customers.requestEmailUpdate({ email: other.email });
    const token = await tokenMailedTo(other.email);
    const refused = portal.customerPortal.customers.verifyEmailUpdate({ token });
    await expect(refused).rejects.toMatchObject({ statusCode: 422, error: { detail: [expect.objectContaining({ loc: ["body", "token"], msg: "This email address is already in use." })] } });
    expect((await shop.polar.customers.get({ id: customer.id })).email).toBe(customer.email);

    // A team's address is not one member's to move.
    const team = await shop.polar.customers.create({ email: `team-${Date.now()}@example.com`, type: "team" });
    const [owner] = (await shop.polar.members.listMembers({ customerId: team.id })).result.items;
    const teamPortal = createPolar({ accessToken: (await shop.polar.customerSessions.create({ customerId: team.id, memberId: owner?.id ?? "" })).token, baseUrl: stack.gateway.url });
    await expect(teamPortal.customerPortal.customers.requestEmailUpdate({ email: `team-moved-${Date.now()}@example.com` })).rejects.toMatchObject({
      statusCode: 422,
      error: { detail: [expect.objectContaining({ loc: ["body", "email"], msg: "Only individual customers can change their email." })] },
    });

    await shop.polar.organizations.update({ id: shop.organizationId, organizationUpdate: { customerPortalSettings: { usage: { show: true }, subscription: { updateSeats: true, updatePlan: true }, customer: { allowEmailChange: false } } } });
    await expect(portal.customerPortal.customers.requestEmailUpdate({ email: `elsewhere-${Date.now()}@example.com` })).rejects.toMatchObject({ statusCode: 403 });
  });
});
