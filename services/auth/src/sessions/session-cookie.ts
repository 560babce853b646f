import type { Response } from "express";
import { authCookieName, encodeSessionCache, signCookieValue, type SessionCache } from "@tollgate/kit";

/** Browsers cap cookie lifetimes at 400 days; better-call refuses longer ones. */
const MAX_COOKIE_AGE_SECONDS = 400 * 24 * 3600;

/** Writes and clears better-auth's session, OAuth state and passkey challenge cookies; only the gateway reads them. */
export class SessionCookies {
  private readonly secure: boolean;
  private readonly names;
  private readonly stateName: string;
  private readonly twoFactorNames;
  private readonly passkeyChallengeName: string;

  constructor(
    private readonly secret: string,
    publicUrl: string,
    private readonly maxAgeSeconds: number,
    /** How long the session_data cookie cache lasts; null when it is off. */
    private readonly cacheMaxAgeSeconds: number | null,
  ) {
    this.secure = publicUrl.startsWith("https:");
    this.names = {
      token: authCookieName("session_token", publicUrl),
      data: authCookieName("session_data", publicUrl),
      dontRemember: authCookieName("dont_remember", publicUrl),
    };
    this.stateName = authCookieName("state", publicUrl);
    this.twoFactorNames = { pendingSignIn: authCookieName("two_factor", publicUrl), trustedDevice: authCookieName("trust_device", publicUrl) };
    this.passkeyChallengeName = authCookieName("better-auth-passkey", publicUrl);
  }

  /** A persistent cookie lasts as long as the session; otherwise it ends with the browser session. */
  issue(res: Response, token: string, persistent: boolean): void {
    const maxAge = persistent ? Math.min(this.maxAgeSeconds, MAX_COOKIE_AGE_SECONDS) : undefined;
    res.append("set-cookie", this.serialize(this.names.token, signCookieValue(token, this.secret), maxAge));
    if (!persistent) res.append("set-cookie", this.serialize(this.names.dontRemember, signCookieValue("true", this.secret)));
  }

  /**
   * Puts the browser back on a session it held before, replacing one that ended with the browser
   * (stop-impersonating): that one's dont_remember cookie goes, unless the restored session ends so too.
   */
  restore(res: Response, token: string, persistent: boolean): void {
    this.issue(res, token, persistent);
    if (persistent) res.append("set-cookie", this.serialize(this.names.dontRemember, "", 0));
  }

  /** The session_data cookie cache, when it is on and the session fits in one cookie. */
  issueCache(res: Response, cache: SessionCache): void {
    if (this.cacheMaxAgeSeconds === null) return;
    const value = encodeSessionCache(cache, this.secret, this.cacheMaxAgeSeconds);
    res.append("set-cookie", value ? this.serialize(this.names.data, value, this.cacheMaxAgeSeconds) : this.serialize(this.names.data, "", 0));
  }

  /** Ties a social sign-in's state to the browser that began it, for as long as the state lives. */
  issueState(res: Response, state: string, maxAgeSeconds: number): void {
    res.append("set-cookie", this.serialize(this.stateName, signCookieValue(state, this.secret), maxAgeSeconds));
  }

  /** Ties a passkey ceremony's challenge to the browser that asked for it, for as long as the challenge lives. */
  issuePasskeyChallenge(res: Response, ceremony: string, maxAgeSeconds: number): void {
    res.append("set-cookie", this.serialize(this.passkeyChallengeName, signCookieValue(ceremony, this.secret), maxAgeSeconds));
  }

  clearState(res: Response): void {
    res.append("set-cookie", this.serialize(this.stateName, "", 0));
  }

  /** Names the sign-in waiting for its second factor, for as long as it waits. */
  issuePendingSignIn(res: Response, token: string, maxAgeSeconds: number): void {
    res.append("set-cookie", this.serialize(this.twoFactorNames.pendingSignIn, signCookieValue(token, this.secret), maxAgeSeconds));
  }

  clearPendingSignIn(res: Response): void {
    res.append("set-cookie", this.serialize(this.twoFactorNames.pendingSignIn, "", 0));
  }

  /** Marks this browser as one whose sign-ins skip the second factor. */
  issueTrustedDevice(res: Response, value: string, maxAgeSeconds: number): void {
    res.append("set-cookie", this.serialize(this.twoFactorNames.trustedDevice, signCookieValue(value, this.secret), maxAgeSeconds));
  }

  clearTrustedDevice(res: Response): void {
    res.append("set-cookie", this.serialize(this.twoFactorNames.trustedDevice, "", 0));
  }

  clear(res: Response): void {
    for (const name of Object.values(this.names)) res.append("set-cookie", this.serialize(name, "", 0));
  }

  private serialize(name: string, value: string, maxAge?: number): string {
    return [
      `${name}=${value}`,
      ...(maxAge === undefined ? [] : [`Max-Age=${maxAge}`]),
      "Path=/",
      "HttpOnly",
      ...(this.secure ? ["Secure"] : []),
      "SameSite=Lax",
    ].join("; ");
  }
}
