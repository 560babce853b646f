import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { assertCurrentPassword } from "../credentials/password-policy.js";
import { authError } from "../http/errors.js";
import { StatusAnswer } from "../http/schemas.js";
import { requireFreshSession, requireSession } from "../sessions/current-session.js";
import { userJson } from "../users/output.js";
import { newBackupCodes, openBackupCodes, sealBackupCodes } from "./backup-codes.js";
import { checkEmailCode, sendEmailCode } from "./email-code.js";
import { refreshCookieCache, setTwoFactorEnabled } from "./enablement.js";
import {
  CodeVerification,
  EnableTwoFactor,
  NewBackupCodes,
  PasswordConfirmation,
  SecondFactorVerified,
  SendEmailCode,
  TotpUri,
  TwoFactorEnabled,
} from "./schemas.js";
import { challengeOf, verifySecondFactor, type Challenge, type Verified } from "./second-factor.js";
import { matchingStep, newTotpSecret, totpUri } from "./totp.js";
import { forgetTrustedDevice } from "./trusted-device.js";
import { claimTotpStep, deleteTwoFactor, findTwoFactor, putUnverifiedTwoFactor, replaceBackupCodes } from "./two-factor.sql.js";

/** better-auth's two-factor plugin: an authenticator app (TOTP), backup codes and codes by e-mail. */
export function twoFactorEndpoints(auth: Parts): Endpoint[] {
  const { config, db, twoFactorVault: vault } = auth;

  /**
   * A signed-in user's first right code (from the app or by e-mail) is what turns two-factor on, as
   * better-auth does without skipVerificationOnEnable: an app that never held the secret locks nobody out.
   */
  const confirmFirstFactor = async (challenge: Challenge, verified: Verified, res: Parameters<typeof refreshCookieCache>[1]): Promise<Verified> => {
    if (challenge.kind !== "session" || challenge.user.two_factor_enabled) return verified;
    const user = await auth.units.run((unit) => setTwoFactorEnabled(unit, challenge.user, true));
    refreshCookieCache(auth, res, challenge.current, user);
    return { ...verified, user: userJson(user) };
  };

  return [
    defineEndpoint(
      "/two-factor/enable",
      {
        method: "POST",
        body: EnableTwoFactor,
        response: TwoFactorEnabled,
        summary: "Set up two-factor: an authenticator app (on once its first code is verified) or codes by e-mail (on at once)",
        tag: "Two Factor",
      },
      async ({ body, identity, req, res }) => {
        const current = await requireSession(auth, identity, req);
        const { user } = current;
        await assertCurrentPassword(auth, user.id, body.password);
        if (body.method === "otp") {
          const updated = await auth.units.run((unit) => setTwoFactorEnabled(unit, user, true));
          refreshCookieCache(auth, res, current, updated);
          return { method: "otp" as const };
        }
        if ((await findTwoFactor(db, user.id))?.verified) throw authError(400, "TOTP_ALREADY_ENABLED");
        const secret = newTotpSecret();
        const backupCodes = newBackupCodes();
        await putUnverifiedTwoFactor(db, user.id, { secret: vault.seal(secret), backupCodes: sealBackupCodes(vault, backupCodes) });
        return { method: "totp" as const, totpURI: totpUri(secret, body.issuer ?? config.TWO_FACTOR_ISSUER, user.email), backupCodes };
      },
    ),

    defineEndpoint(
      "/two-factor/get-totp-uri",
      { method: "POST", body: PasswordConfirmation, response: TotpUri, summary: "The authenticator app's URI again, to set up another device", tag: "Two Factor" },
      async ({ body, identity, req }) => {
        const { user } = await requireSession(auth, identity, req);
        const authenticator = await findTwoFactor(db, user.id);
        if (!authenticator) throw authError(400, "TOTP_NOT_ENABLED");
        await assertCurrentPassword(auth, user.id, body.password);
        return { totpURI: totpUri(vault.open(authenticator.secret), config.TWO_FACTOR_ISSUER, user.email) };
      },
    ),

    defineEndpoint(
      "/two-factor/disable",
      { method: "POST", body: PasswordConfirmation, response: StatusAnswer, summary: "Turn two-factor off (a recent sign-in and the password)", tag: "Two Factor" },
      async ({ body, identity, req, res }) => {
        const current = await requireFreshSession(auth, identity, req);
        await assertCurrentPassword(auth, current.user.id, body.password);
        const user = await auth.units.run(async (unit) => {
          await deleteTwoFactor(unit.db, current.user.id);
          await forgetTrustedDevice(auth, unit.db, req, res, current.user.id);
          return setTwoFactorEnabled(unit, current.user, false);
        });
        refreshCookieCache(auth, res, current, user);
        return { status: true };
      },
    ),

    defineEndpoint(
      "/two-factor/generate-backup-codes",
      { method: "POST", body: PasswordConfirmation, response: NewBackupCodes, summary: "Ten new backup codes; the old ones stop working", tag: "Two Factor" },
      async ({ body, identity, req }) => {
        const { user } = await requireSession(auth, identity, req);
        if (!user.two_factor_enabled) throw authError(400, "TWO_FACTOR_NOT_ENABLED");
        await assertCurrentPassword(auth, user.id, body.password);
        const authenticator = await findTwoFactor(db, user.id);
        if (!authenticator) throw authError(400, "TWO_FACTOR_NOT_ENABLED");
        const backupCodes = newBackupCodes();
        await replaceBackupCodes(db, authenticator.id, sealBackupCodes(vault, backupCodes));
        return { status: true, backupCodes };
      },
    ),

    defineEndpoint(
      "/two-factor/verify-totp",
      {
        method: "POST",
        body: CodeVerification,
        response: SecondFactorVerified,
        summary: "Verify an authenticator app's code: finishes a pending sign-in, or confirms the app being set up",
        tag: "Two Factor",
      },
      async ({ body, identity, req, res }) => {
        const challenge = await challengeOf(auth, identity, req);
        const authenticator = await findTwoFactor(db, challenge.user.id);
        if (!authenticator || (challenge.kind === "sign-in" && !authenticator.verified)) throw authError(400, "TOTP_NOT_ENABLED");
        const verified = await verifySecondFactor(auth, challenge, { req, res }, { trustDevice: body.trustDevice, failure: "INVALID_CODE" }, async () => {
          const step = matchingStep(vault.open(authenticator.secret), body.code);
          // A code already used in its step does not work again (one overheard or replayed).
          return step !== null && (await claimTotpStep(db, authenticator.id, step));
        });
        return confirmFirstFactor(challenge, verified, res);
      },
    ),

    defineEndpoint(
      "/two-factor/verify-backup-code",
      { method: "POST", body: CodeVerification, response: SecondFactorVerified, summary: "Use a backup code instead of the app's code; each works once", tag: "Two Factor" },
      async ({ body, identity, req, res }) => {
        const challenge = await challengeOf(auth, identity, req);
        const authenticator = await findTwoFactor(db, challenge.user.id);
        if (!authenticator) throw authError(400, "BACKUP_CODES_NOT_ENABLED");
        return verifySecondFactor(auth, challenge, { req, res }, { trustDevice: body.trustDevice, failure: "INVALID_BACKUP_CODE" }, async () => {
          const codes = openBackupCodes(vault, authenticator.backup_codes);
          if (!codes.includes(body.code)) return false;
          const remaining = sealBackupCodes(vault, codes.filter((code) => code !== body.code));
          // Spent only if no other request spent a code meanwhile: two requests cannot both use this one.
          return replaceBackupCodes(db, authenticator.id, remaining, authenticator.backup_codes);
        });
      },
    ),

    defineEndpoint(
      "/two-factor/send-otp",
      { method: "POST", body: SendEmailCode, response: StatusAnswer, summary: "E-mail a 6-digit code, valid for 3 minutes", tag: "Two Factor" },
      async ({ identity, req }) => {
        await sendEmailCode(auth, await challengeOf(auth, identity, req), req);
        return { status: true };
      },
    ),

    defineEndpoint(
      "/two-factor/verify-otp",
      { method: "POST", body: CodeVerification, response: SecondFactorVerified, summary: "Verify the e-mailed code", tag: "Two Factor" },
      async ({ body, identity, req, res }) => {
        const challenge = await challengeOf(auth, identity, req);
        const verified = await verifySecondFactor(auth, challenge, { req, res }, { trustDevice: body.trustDevice, failure: "INVALID_CODE" }, () =>
          checkEmailCode(auth, challenge, body.code),
        );
        return confirmFirstFactor(challenge, verified, res);
      },
    ),
  ];
}
