import { afterEach, describe, expect, it, vi } from "vitest";
import { generateIdentityKeys, identitySigner, identityVerifier } from "@tollgate/kit";
import type { IdentityClaims } from "@tollgate/proto";

const user: IdentityClaims = { kind: "user", user_id: "u1", session_id: "s1" };

afterEach(() => {
  vi.useRealTimers();
});

describe("identity tokens", () => {
  it("carry the caller and the client's address from the gateway's key to a service holding its public half", () => {
    const keys = generateIdentityKeys();
    const token = identitySigner(keys.signingKey).sign(user, "203.0.113.9");
    expect(identityVerifier([keys.verifyKey]).verify(token)).toEqual({ claims: user, clientAddress: "203.0.113.9" });
    expect(identityVerifier([generateIdentityKeys().verifyKey]).verify(token)).toBeNull();
  });

  it("are refused once changed by a single character", () => {
    const keys = generateIdentityKeys();
    const token = identitySigner(keys.signingKey).sign(user);
    const [header = "", payload = "", signature = ""] = token.split(".");
    const admin = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), user_id: "admin" })).toString("base64url");
    expect(identityVerifier([keys.verifyKey]).verify(`${header}.${admin}.${signature}`)).toBeNull();
  });

  it("are taken from either key while keys rotate, and from the new one alone after", () => {
    const old = generateIdentityKeys();
    const fresh = generateIdentityKeys();
    const rotating = identityVerifier([fresh.verifyKey, old.verifyKey]);
    expect(rotating.verify(identitySigner(old.signingKey).sign(user))?.claims).toEqual(user);
    expect(rotating.verify(identitySigner(fresh.signingKey).sign(user))?.claims).toEqual(user);
    expect(identityVerifier([fresh.verifyKey]).verify(identitySigner(old.signingKey).sign(user))).toBeNull();
  });

  it("are reused by the gateway for half their life, and refused once expired even after a service verified them", () => {
    vi.useFakeTimers({ now: new Date("2026-11-24T10:00:00Z") });
    const keys = generateIdentityKeys();
    const signer = identitySigner(keys.signingKey);
    const verifier = identityVerifier([keys.verifyKey]);
    const first = signer.sign(user);
    expect(verifier.verify(first)?.claims).toEqual(user);
    vi.advanceTimersByTime(29_000);
    expect(signer.sign(user)).toBe(first);
    expect(signer.sign(user, "198.51.100.1")).not.toBe(first);
    vi.advanceTimersByTime(2_000);
    const second = signer.sign(user);
    expect(second).not.toBe(first);
    vi.advanceTimersByTime(30_000);
    expect(verifier.verify(first)).toBeNull();
    expect(verifier.verify(second)?.claims).toEqual(user);
  });
});
