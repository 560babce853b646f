import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPolar } from "polar-sdk-1/2026-10";
import { startBillingStack, type BillingStack, type Seller } from "../../../test/stacks/billing.js";
import { findOrAddMember, memberOfCustomer } from "../src/members/service.js";
import { findCustomer } from "../src/customers/service.js";

let stack: BillingStack;
let shop: Seller;
let polar: ReturnType<typeof createPolar>;

beforeAll(async () => {
  stack = await startBillingStack();
  shop = await stack.seller();
  polar = createPolar({ accessToken: shop.token, baseUrl: stack.gateway.url });
});

afterAll(async () => {
  await stack?.stop();
});

describe("members", () => {
  it("a customer is made with its owner, and members are found or added by e-mail or external id", async () => {
    const customer = await polar.customers.create({ email: "team@example.com", name: "Team", type: "team" });
    expect(customer.type).toBe("team");
    const row = await findCustomer(stack.billing.context.db, customer.id);
    if (!row) throw new Error("no customer");
    const { units, db } = stack.billing.context.app;
    const ada = await units.run((unit) => findOrAddMember(unit, row, { email: "Ada@example.com", name: "Ada" }));
    expect(ada).toMatchObject({ email: "Ada@example.com", role: "member" });
    expect((await units.run((unit) => findOrAddMember(unit, row, { email: "ada@EXAMPLE.com", external_id: "u1" }))).id).toBe(ada.id);
    expect((await units.run((unit) => findOrAddMember(unit, row, { external_id: "u1" }))).external_id).toBe("u1");
    await expect(units.run((unit) => findOrAddMember(unit, row, { external_id: "u1", email: "other@example.com" }))).rejects.toMatchObject({ status: 400 });
    await expect(units.run((unit) => findOrAddMember(unit, row, { external_id: "nobody" }))).rejects.toMatchObject({ status: 404 });
    expect((await memberOfCustomer(db, customer.id, ada.id))?.id).toBe(ada.id);
  });
});
