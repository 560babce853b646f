import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

interface VaultKey {
  id: string;
  key: Buffer;
}

const ALGORITHM = "aes-256-gcm";

/** A 32-byte key for one purpose, derived from a longer-lived secret. */
export const derivedVaultKey = (secret: string, purpose: string) => Buffer.from(hkdfSync("sha256", secret, "tollgate", purpose, 32));
/**
 * Secrets at rest (provider tokens, webhook signing secrets): AES-256-GCM, each value sealed as
 * `kid.iv.ciphertext.tag` (base64url), so keys can be rotated: new values use the first key, older
 * ones open with the key they name.
 */
export class SecretVault {
  private readonly keys: Map<string, Buffer>;
  private readonly current: VaultKey;

  constructor(keys: VaultKey[]) {
    const [current] = keys;
    if (!current) throw new Error("the vault needs a key");
    this.current = current;
    this.keys = new Map(keys.map(({ id, key }) => [id, key]));
  }

  /**
   * From configured keys (`kid:base64`, newest first), or, when there are none and a fallback is
   * given, one key derived from a secret of the service's own for this purpose alone, named `derivedKeyId`.
   */
  static fromSettings(configured: string[], fallback?: { secret: string; purpose: string; derivedKeyId: string }): SecretVault {
    if (configured.length === 0 && fallback) {
      return new SecretVault([{ id: fallback.derivedKeyId, key: derivedVaultKey(fallback.secret, fallback.purpose) }]);
    }
    return new SecretVault(configured.map((entry) => ({ id: entry.slice(0, entry.indexOf(":")), key: Buffer.from(entry.slice(entry.indexOf(":") + 1), "base64") })));
  }

  seal(plain: string): string;
  seal(plain: string | null): string | null;
  seal(plain: string | null): string | null {
    if (plain === null) return null;
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.current.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [this.current.id, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
  }

  /** The plain value; throws when the key it names is gone or the value was tampered with. */
  open(sealed: string): string;
  open(sealed: string | null): string | null;
  open(sealed: string | null): string | null {
    if (sealed === null) return null;
    const [id = "", iv = "", ciphertext = "", tag = ""] = sealed.split(".");
    const key = this.keys.get(id);
    if (!key) throw new Error(`no encryption key "${id}" is configured`);
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  }
}
