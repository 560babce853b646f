import { setTimeout as sleep } from "node:timers/promises";
import { URI, type TOTP } from "otpauth";
import type { Browser } from "./auth.js";

const STEP_MS = 30_000;

/**
 * The authenticator app's code `steps` time steps from now. A code is checked against the server's
 * clock a moment later: near the end of a step, wait for the next one so both see the same step.
 */
export async function authenticatorCode(totp: TOTP, steps = 0): Promise<string> {
  if (STEP_MS - (Date.now() % STEP_MS) < 2_000) await sleep(STEP_MS - (Date.now() % STEP_MS) + 50);
  return totp.generate({ timestamp: Date.now() + steps * STEP_MS });
}

/**
 * Turns two-factor authentication on for the browser's signed-in user, as a person does with an
 * authenticator app: enable with the password, then confirm with a code — the previous step's, so that
 * now's and the next step's are still unused for signing in later.
 */
export async function turnOnTwoFactor(browser: Browser, password: string): Promise<{ totp: TOTP; backupCodes: string[] }> {
  const enabled = await browser.client.twoFactor.enable({ password });
  if (enabled.data?.method !== "totp") throw new Error(`enable answered ${JSON.stringify(enabled.data ?? enabled.error)}`);
  const totp = URI.parse(enabled.data.totpURI) as TOTP;
  const confirmed = await browser.client.twoFactor.verifyTotp({ code: await authenticatorCode(totp, -1) });
  if (confirmed.error) throw new Error(`confirming failed: ${JSON.stringify(confirmed.error)}`);
  return { totp, backupCodes: enabled.data.backupCodes };
}
