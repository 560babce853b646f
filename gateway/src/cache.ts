import { createHmac, timingSafeEqual } from "node:crypto";
import type { ChainableCommander, Redis } from "ioredis";
import type { Logger } from "@tollgate/kit";

/** How often, at most, entries refused for their MAC are reported. */
const REFUSALS_REPORTED_EVERY_MS = 60_000;
/** `expiresAt.mac.value`: milliseconds since the epoch, the base64url of an HMAC-SHA256, the JSON cached. */
const SEALED = /^(\d{1,15})\.([\w-]{43})\.(.*)$/s;

/**
 * The gateway's Redis cache of who a credential belongs to. Whatever can write to Redis must not be able
 * to say who a caller is, so each entry is sealed with an HMAC-SHA256, keyed with a secret only the
 * gateway holds, over its full key (a copy under another token's key is worthless), its expiry (a
 * copy put back after it was dropped or outlived its TTL is worthless) and its value. An entry with a
 * missing or wrong MAC is a miss: the service that knows is asked, and its answer replaces the entry.
 *
 * Redis is only a cache here: while it cannot answer, every caller is resolved by the service and
 * nothing is cached, so an outage costs speed, never a wrong answer. (The outage itself is logged
 * once, by the connection.)
 */
export class GatewayCache {
  private refused = 0;
  private reportedAt = 0;

  constructor(
    private readonly deps: { redis: Redis; logger: Logger; sealingKey: Buffer; ttlSeconds: number },
  ) {}

  /** How long an entry is kept, in seconds. */
  get ttlSeconds(): number {
    return this.deps.ttlSeconds;
  }

  /**
   * The cached value under `key`, or else what `load` answers, which is cached for next time with
   * whatever `alsoWrite` adds to the same transaction.
   */
  async readThrough<Value>(key: string, load: () => Promise<Value>, alsoWrite?: (write: ChainableCommander, value: Value) => void): Promise<Value> {
    const { redis } = this.deps;
    let entry: string | null = null;
    let reachable = true;
    try {
      entry = await redis.get(key);
    } catch (error) {
      reachable = false;
      this.unexpected(error);
    }
    const cached = entry === null ? undefined : this.open(key, entry);
    if (cached !== undefined) return JSON.parse(cached) as Value;
    const value = await load();
    if (reachable) {
      const write = redis.multi().set(key, this.seal(key, JSON.stringify(value)), "EX", this.deps.ttlSeconds);
      alsoWrite?.(write, value);
      await write.exec().catch((error: unknown) => this.unexpected(error));
    }
    return value;
  }

  private seal(key: string, value: string): string {
    const expiresAt = Date.now() + this.deps.ttlSeconds * 1000;
    return `${expiresAt}.${this.mac(key, expiresAt, value)}.${value}`;
  }

  /** The value an entry holds, if the gateway sealed it for `key` and it has not expired. */
  private open(key: string, entry: string): string | undefined {
    const [, expiresAt = "", mac = "", value = ""] = SEALED.exec(entry) ?? [];
    if (!mac || !timingSafeEqual(Buffer.from(mac), Buffer.from(this.mac(key, Number(expiresAt), value)))) {
      this.report();
      return undefined;
    }
    return Number(expiresAt) > Date.now() ? value : undefined;
  }

  /** Bound to the key as Redis holds it, prefix and all, so entries of another deployment sharing the key do not open either. */
  private mac(key: string, expiresAt: number, value: string): string {
    const fullKey = `${this.deps.redis.options.keyPrefix ?? ""}${key}`;
    return createHmac("sha256", this.deps.sealingKey).update(JSON.stringify([fullKey, expiresAt, value])).digest("base64url");
  }

  /** Entries the gateway did not seal were written by something else with access to Redis (or by a release before sealing). */
  private report(): void {
    this.refused += 1;
    const now = Date.now();
    if (now - this.reportedAt < REFUSALS_REPORTED_EVERY_MS) return;
    this.deps.logger.warn({ refused: this.refused }, "ignored cache entries whose MAC is missing or wrong; is something other than the gateway writing to its Redis keys?");
    this.reportedAt = now;
    this.refused = 0;
  }

  /** A failure while Redis is connected is news; one while it is away is the outage already logged. */
  private unexpected(error: unknown): void {
    if (this.deps.redis.status === "ready") this.deps.logger.warn({ err: error }, "the Redis cache failed; asking the service instead");
  }
}
