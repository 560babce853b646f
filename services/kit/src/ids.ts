import { randomInt } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random id or token of letters and digits (better-auth's format), from the CSPRNG. */
export function randomId(length = 32): string {
  let id = "";
  for (let index = 0; index < length; index++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}
