import { randomInt } from "node:crypto";
import { z } from "zod";
import type { SecretVault } from "@tollgate/kit";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const CODE_COUNT = 10;

/** better-auth's shape: ten codes of ten letters and digits, split 5-5 so they can be read out. */
export function newBackupCodes(): string[] {
  return Array.from({ length: CODE_COUNT }, () => {
    const code = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

const StoredCodes = z.array(z.string());

export const sealBackupCodes = (vault: SecretVault, codes: string[]) => vault.seal(JSON.stringify(codes));

export const openBackupCodes = (vault: SecretVault, sealed: string) => StoredCodes.parse(JSON.parse(vault.open(sealed)));
