import { PUBLIC_URL } from "../stacks/auth.js";

/** What came back to a raw request: status, content type and the body as text. */
export interface RawAnswer {
  status: number;
  type: string;
  text: string;
  headers: Headers;
}

export interface RawRequest {
  method?: string;
  /** Sent as JSON; `rawBody` sends these bytes as they are instead. */
  body?: unknown;
  rawBody?: string;
  /** Added to the JSON content type and the site's own origin. */
  headers?: Record<string, string>;
  /** A browser's cookie-carrying fetch, when the request rides on a session. */
  browser?: typeof fetch;
}

/** A request to the gateway at `base`, sent as an attacker sends it: raw JSON, no client library in between. */
export async function rawRequest(base: string, path: string, init: RawRequest = {}): Promise<RawAnswer> {
  const response = await (init.browser ?? fetch)(`${base}${path}`, {
    method: init.method ?? (init.body === undefined && init.rawBody === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", origin: PUBLIC_URL, ...init.headers },
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get("content-type") ?? "", text, headers: response.headers };
}

/** The places Polar's 422 names, one per refused value. */
export const refusedPlaces = (answer: RawAnswer): (string | number)[][] => (JSON.parse(answer.text) as { detail: { loc: (string | number)[] }[] }).detail.map((issue) => issue.loc);
