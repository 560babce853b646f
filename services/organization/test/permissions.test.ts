import { describe, expect, it } from "vitest";
import { hasPermission, unknownRoles } from "../src/roles/permissions.js";

describe("roles", () => {
  const inherited = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"];

  it("are only better-auth's default roles, never what every object answers to", () => {
    expect(unknownRoles(["owner", "admin", "member"])).toEqual([]);
    expect(unknownRoles(inherited)).toEqual(inherited);
    expect(unknownRoles(`member,${inherited.join(",")}`)).toEqual(inherited);
  });

  it("grant nothing under such a name, and nothing on a resource they do not know, without throwing", () => {
    for (const name of inherited) {
      expect(hasPermission(name, { member: ["delete"] }), name).toBe(false);
      expect(hasPermission("owner", { [name]: ["read"] }), name).toBe(false);
    }
    expect(hasPermission("owner", { billing: ["read"] })).toBe(false);
    expect(hasPermission(`constructor,admin`, { member: ["delete"] })).toBe(true);
  });
});
