import { describe, expect, it } from "vitest";
import { MEMBERSHIP_EVENTS, memberAdded, resolveSession, setActiveOrganization, userCreated } from "@tollgate/proto";
import { checkAnnounces, checkCalls, checkConsumes, checkServes } from "../../src/bus/access.js";

describe("a process is held to what BUS_ACCESS declares of it", () => {
  const memberships = MEMBERSHIP_EVENTS.map((event) => event.type);

  it("announces only its own events", () => {
    expect(() => checkAnnounces("organization", memberAdded.type)).not.toThrow();
    expect(() => checkAnnounces("billing", memberAdded.type)).toThrow("billing announces member.added, organization's event, which proto's BUS_ACCESS does not declare");
    expect(() => checkAnnounces("billing", "test.item_created")).toThrow(/billing announces test\.item_created/);
  });

  it("sends and answers only the requests it declares", () => {
    expect(() => checkCalls("organization", setActiveOrganization)).not.toThrow();
    expect(() => checkCalls("billing", setActiveOrganization)).toThrow("billing sends the request auth.session.set_active");
    expect(() => checkServes("auth", resolveSession)).not.toThrow();
    expect(() => checkServes("gateway", resolveSession)).toThrow("gateway answers the request auth.session.resolve");
  });

  it("consumes only under a declared name, exactly the events declared for it", () => {
    expect(() => checkConsumes("billing", "billing-memberships", [...memberships].reverse())).not.toThrow();
    expect(() => checkConsumes("billing", "billing-memberships", [...memberships, userCreated.type])).toThrow(/billing consumes .* as billing-memberships/);
    expect(() => checkConsumes("billing", "billing-spies", memberships)).toThrow(/as billing-spies/);
  });

  it("leaves processes it does not name alone: a test's, a bench's", () => {
    expect(() => checkAnnounces("consumer-test", memberAdded.type)).not.toThrow();
    expect(() => checkCalls("rpc-test", setActiveOrganization)).not.toThrow();
    expect(() => checkConsumes("consumer-test", "anything", memberships)).not.toThrow();
  });
});
