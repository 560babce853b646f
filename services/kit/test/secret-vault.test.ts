import { describe, expect, it } from "vitest";
import { SecretVault } from "../src/crypto/secret-vault.js";

const key = (byte: number) => Buffer.alloc(32, byte);

describe("the secret vault", () => {
  it("seals each value afresh and opens it again", () => {
    const vault = new SecretVault([{ id: "k1", key: key(1) }]);
    const first = vault.seal("ya29.a0AfB_byC");
    expect(first).toMatch(/^k1\./);
    expect(first).not.toContain("ya29");
    expect(vault.seal("ya29.a0AfB_byC")).not.toBe(first);
    expect(vault.open(first)).toBe("ya29.a0AfB_byC");
    expect(vault.seal(null)).toBeNull();
  });

  it("opens values sealed with an older key after a rotation, and seals with the newest", () => {
    const old = new SecretVault([{ id: "k1", key: key(1) }]);
    const sealed = old.seal("refresh-me");
    const rotated = SecretVault.fromSettings([`k2:${key(2).toString("base64")}`, `k1:${key(1).toString("base64")}`], { secret: "unused", purpose: "test", derivedKeyId: "derived" });
    expect(rotated.open(sealed)).toBe("refresh-me");
    expect(rotated.seal("new")).toMatch(/^k2\./);
    expect(() => new SecretVault([{ id: "k2", key: key(2) }]).open(sealed)).toThrow(/no encryption key "k1"/);
  });

  it("refuses a value that was tampered with", () => {
    const vault = SecretVault.fromSettings([], { secret: "an auth secret of at least thirty-two characters", purpose: "test", derivedKeyId: "derived" });
    const [id, iv, ciphertext, tag] = vault.seal("access").split(".");
    const flipped = Buffer.from(ciphertext ?? "", "base64url");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => vault.open([id, iv, flipped.toString("base64url"), tag].join("."))).toThrow();
  });
});
