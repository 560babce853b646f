import { describe, expect, it } from "vitest";
import { meetsTwoFactorRequirement } from "../../src/access/two-factor.js";

describe("an organization's two-factor requirement", () => {
  it("admits a session with two-factor to an organization that requires it", () => {
    expect(meetsTwoFactorRequirement(true, true)).toBe(true);
  });

  it("refuses a session without two-factor, or whose token does not say (signed before it was told)", () => {
    expect(meetsTwoFactorRequirement(true, false)).toBe(false);
    expect(meetsTwoFactorRequirement(true, undefined)).toBe(false);
  });

  it("admits anyone to an organization that does not require it", () => {
    expect(meetsTwoFactorRequirement(false, false)).toBe(true);
    expect(meetsTwoFactorRequirement(false, undefined)).toBe(true);
  });
});
