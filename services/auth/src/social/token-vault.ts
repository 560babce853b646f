import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

interface VaultKey {
  id: string;
  key: Buffer;
}

const ALGORITHM = "aes-256-gcm";
/** The key id of the key derived from AUTH_SECRET, used when no keys are configured. */
const DERIVED_KEY_ID = "auth-secret";

/**
 * Provider tokens at rest: AES-256-GCM, each value sealed as `kid.iv.ciphertext.tag` (base64url), so
 * keys can be rotated: new values use the first key, older ones open with the key they name.
 */
export class TokenVault {
  private readonly keys: Map<string, Buffer>;
  private readonly current: VaultKey;

  constructor(keys: VaultKey[]) {
    const [current] = keys;
    if (!current) throw new Error("the token vault needs a key");
    this.current = current;
    this.keys = new Map(keys.map(({ id, key }) => [id, key]));
  }

  /** From TOKEN_ENCRYPTION_KEYS (`kid:base64`, newest first), or one key derived from AUTH_SECRET. */
  static fromSettings(configured: string[], authSecret: string): TokenVault {
    if (configured.length === 0) {
      return new TokenVault([{ id: DERIVED_KEY_ID, key: Buffer.from(hkdfSync("sha256", authSecret, "tollgate", "provider-tokens", 32)) }]);
    }
    return new TokenVault(configured.map((entry) => ({ id: entry.slice(0, entry.indexOf(":")), key: Buffer.from(entry.slice(entry.indexOf(":") + 1), "base64") })));
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
  open(sealed: string | null): string | null {
    if (sealed === null) return null;
    const [id = "", iv = "", ciphertext = "", tag = ""] = sealed.split(".");
    const key = this.keys.get(id);
    if (!key) throw new Error(`no token encryption key "${id}" is configured`);
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  }
}
