import type { Response } from "express";
import { authCookieName, signCookieValue } from "@tollgate/kit";

/** Browsers cap cookie lifetimes at 400 days; better-call refuses longer ones. */
const MAX_COOKIE_AGE_SECONDS = 400 * 24 * 3600;

/** Writes and clears better-auth's session cookies; only the gateway reads them. */
export class SessionCookies {
  private readonly secure: boolean;
  private readonly names;

  constructor(
    private readonly secret: string,
    publicUrl: string,
    private readonly maxAgeSeconds: number,
  ) {
    this.secure = publicUrl.startsWith("https:");
    this.names = {
      token: authCookieName("session_token", publicUrl),
      data: authCookieName("session_data", publicUrl),
      dontRemember: authCookieName("dont_remember", publicUrl),
    };
  }

  /** A persistent cookie lasts as long as the session; otherwise it ends with the browser session. */
  issue(res: Response, token: string, persistent: boolean): void {
    const maxAge = persistent ? Math.min(this.maxAgeSeconds, MAX_COOKIE_AGE_SECONDS) : undefined;
    res.append("set-cookie", this.serialize(this.names.token, signCookieValue(token, this.secret), maxAge));
    if (!persistent) res.append("set-cookie", this.serialize(this.names.dontRemember, signCookieValue("true", this.secret)));
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
