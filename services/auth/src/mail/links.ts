import type { AuthConfig } from "../config.js";

/** Links in mail lead back to this service's endpoints under the site's public address. */
export const authUrl = (config: AuthConfig, path: string) => `${config.PUBLIC_URL.replace(/\/$/, "")}/api/auth${path}`;

/** The links a mail's text carries, as the development mailbox lists them. */
export const linksIn = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];
