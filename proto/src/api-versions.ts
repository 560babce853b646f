/**
 * Polar's dated API versions, which `/v1` answers in: a caller names one in the `Polar-Version`
 * header (SDK 1.x does, from its import path), and answers and the API's description take that
 * version's shapes. Oldest first; `YYYY-MM` strings order as the dates do. A module of its own, with
 * no imports: the web app's webhook form offers the same list without loading zod.
 */
export const API_VERSIONS = ["2026-04", "2026-10", "2027-01"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** What a request naming no version gets (SDK 0.47 names none): every field there is. */
export const NEWEST_API_VERSION: ApiVersion = "2027-01";
