/**
 * What of a request's URL may be written to a log. Some URLs carry credentials — a mailed token, a
 * checkout's client secret, a signed file grant, a customer portal session — and logs travel further
 * than the request did, so one rule, applied by every access log, blanks them wherever they sit.
 */

const REDACTED = "[redacted]";

/** Query parameters whose values are credentials: OAuth codes, states and tokens, mailed tokens, portal sessions. */
const CREDENTIAL_QUERY_KEYS = new Set([
  "code",
  "state",
  "token",
  "access_token",
  "id_token",
  "refresh_token",
  "client_secret",
  "client_key",
  "customer_session_token",
]);

/** Routes whose next path segment is itself a credential (a token or client secret in the path). */
const CREDENTIAL_SEGMENT_AFTER = [
  "api/auth/reset-password",
  "v1/checkouts/client",
  "v1/checkout-links",
  "v1/customer-portal/downloadables",
  "v1/files/downloads",
  "v1/files/uploads",
  // The hosted checkout page, /checkout/<client secret>.
  "checkout",
];

/** Routers ignore case and repeated slashes, so the rule does too: `//API/auth/reset-password/…` is the same route. */
const CREDENTIAL_SEGMENT = new RegExp(`^(/+(?:${CREDENTIAL_SEGMENT_AFTER.map((prefix) => prefix.split("/").join("/+")).join("|")})/+)[^/]+`, "i");

/** Tokens made in Polar's manner carry a `polar_<kind>_` prefix (polar_c_, polar_cl_, polar_cst_, polar_oat_, polar_whs_): blanked anywhere. */
const PREFIXED_TOKEN = /polar_[a-z]+_[A-Za-z0-9]+/g;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** A request's URL as logs show it. */
export function loggableUrl(url: string): string {
  const queryStart = url.indexOf("?");
  const path = (queryStart === -1 ? url : url.slice(0, queryStart)).replace(CREDENTIAL_SEGMENT, `$1${REDACTED}`);
  const query =
    queryStart === -1
      ? ""
      : `?${url
          .slice(queryStart + 1)
          .split("&")
          .map((pair) => {
            const [key = ""] = pair.split("=", 1);
            return CREDENTIAL_QUERY_KEYS.has(decoded(key).toLowerCase()) ? `${key}=${REDACTED}` : pair;
          })
          .join("&")}`;
  return `${path}${query}`.replace(PREFIXED_TOKEN, REDACTED);
}
