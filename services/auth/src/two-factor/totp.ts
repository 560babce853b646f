import { createHmac, randomBytes } from "node:crypto";

/** RFC 6238 as authenticator apps use it: HMAC-SHA-1, 6 digits, a 30-second step. */
const DIGITS = 6;
const PERIOD_SECONDS = 30;
/** A code from the step before or after still works: phones' clocks drift and people type slowly. */
const WINDOW_STEPS = 1;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, as otpauth URIs carry secrets. */
function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

/** A new shared secret (160 bits, RFC 4226's recommended length), base32 as apps take it. */
export const newTotpSecret = () => base32(randomBytes(20));

function fromBase32(secret: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of secret) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226's HOTP for one counter value. */
function hotp(key: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac("sha1", key).update(message).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 15;
  const number = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(number % 10 ** DIGITS).padStart(DIGITS, "0");
}

/** The time step a code was made for, if `code` is the secret's code for now or a step either side; null otherwise. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = fromBase32(secret);
  const current = Math.floor(now / 1000 / PERIOD_SECONDS);
  for (let step = current - WINDOW_STEPS; step <= current + WINDOW_STEPS; step++) {
    if (hotp(key, step) === code) return step;
  }
  return null;
}

/** The otpauth:// URI an authenticator app reads from a QR code (Key Uri Format). */
export function totpUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&digits=${DIGITS}&period=${PERIOD_SECONDS}`;
}
