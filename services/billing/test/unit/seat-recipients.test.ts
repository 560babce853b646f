import { describe, expect, it } from "vitest";
import { recipientProblem } from "../../src/customer-seats/schemas.js";

describe("naming a seat's recipient, as Polar's SeatAssign allows", () => {
  it("takes one of an e-mail, a customer or a member, and an external member id with an e-mail", () => {
    for (const named of [{ email: "a@example.com" }, { customer_id: "c" }, { external_customer_id: "x" }, { member_id: "m" }, { external_member_id: "e" }, { external_member_id: "e", email: "a@example.com" }]) {
      expect(recipientProblem(named), JSON.stringify(named)).toBeNull();
    }
  });

  it("refuses no recipient, a customer with a member, two members, a customer with an e-mail, and a member id with an e-mail", () => {
    expect(recipientProblem({ email: null })).toBe("At least one of email, external_customer_id, customer_id, external_member_id, or member_id must be provided");
    expect(recipientProblem({ customer_id: "c", member_id: "m" })).toBe("Cannot combine external_customer_id/customer_id with external_member_id/member_id");
    expect(recipientProblem({ member_id: "m", external_member_id: "e" })).toBe("Cannot provide both external_member_id and member_id");
    expect(recipientProblem({ customer_id: "c", email: "a@example.com" })).toBe("Exactly one of email, external_customer_id, or customer_id must be provided");
    expect(recipientProblem({ customer_id: "c", external_customer_id: "x" })).toBe("Exactly one of email, external_customer_id, or customer_id must be provided");
    expect(recipientProblem({ member_id: "m", email: "a@example.com" })).toBe("Cannot combine member_id with email");
  });
});
