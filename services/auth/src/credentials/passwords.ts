import { createHash } from "node:crypto";
import bcrypt from "bcrypt";

/**
 * bcrypt, on libuv's thread pool so the event loop never waits on it, over a SHA-256 digest of the
 * password: bcrypt reads only 72 bytes, so long passwords would otherwise collide past them.
 */
export class PasswordHasher {
  private readonly dummyHash: Promise<string>;

  constructor(private readonly cost: number) {
    this.dummyHash = this.hash("a password no account has");
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(prehash(password), this.cost);
  }

  verify(password: string, hash: string): Promise<boolean> {
    return bcrypt.compare(prehash(password), hash);
  }

  /** Spends a verification's worth of time when there is no hash to check, so timing reveals nothing. */
  async verifyNothing(password: string): Promise<false> {
    await bcrypt.compare(prehash(password), await this.dummyHash);
    return false;
  }
}

const prehash = (password: string) => createHash("sha256").update(password, "utf8").digest("base64");
