import { authClient, viaAuth } from "../../api/auth-client";
import { useChange } from "../../api/mutations";
import { authKeys } from "../../auth/queries";

/*
 * Two-factor authentication lives on the user (`twoFactorEnabled` in the session); better-auth's client
 * refreshes the session after each of these too, and so the card shows what the server has.
 */

/** Sets up an authenticator app: its otpauth URI and the backup codes, shown this once. Two-factor is on only once confirmed. */
export const useEnableTwoFactor = () =>
  useChange(async (password: string) => {
    const answer = await viaAuth(() => authClient.twoFactor.enable({ password }));
    if (answer.method !== "totp") throw new Error("enable answered without an authenticator");
    return answer;
  }, () => [authKeys.session]);

/** The app's first code: turns two-factor on. */
export const useConfirmAuthenticator = () => useChange((code: string) => viaAuth(() => authClient.twoFactor.verifyTotp({ code })), () => [authKeys.session]);

export const useDisableTwoFactor = () => useChange((password: string) => viaAuth(() => authClient.twoFactor.disable({ password })), () => [authKeys.session]);

/** Ten new backup codes; the old ones stop working. */
export const useNewBackupCodes = () => useChange((password: string) => viaAuth(() => authClient.twoFactor.generateBackupCodes({ password })), () => []);
