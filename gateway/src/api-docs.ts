import type { Express, Request, Response } from "express";
import { IDENTITY_HEADER } from "@tollgate/proto";
import { API_VERSION_HEADER, API_VERSIONS, apiVersionOf, isApiVersion, NEWEST_API_VERSION, type ApiVersion, type IdentitySigner, type Logger } from "@tollgate/kit";
import type { Upstream } from "./routes.js";

/** An OpenAPI document, as the services serve them: only the parts merged here are looked into. */
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; "x-displayName": string }[];
  paths?: Record<string, Record<string, { tags?: string[] }>>;
  components?: Record<string, Record<string, unknown>>;
  security?: unknown[];
}

/** One public API, described by the documents of the services behind its prefix. */
interface PublishedApi {
  /** Where the merged document is served, and where its reference page is. */
  documentPath: string;
  pagePath: string;
  title: string;
  description: string;
  /** Upstream names whose documents make it up. */
  services: string[];
  /** Whether it answers in Polar's dated versions, each with a document and a page of its own. */
  dated: boolean;
}

const APIS: PublishedApi[] = [
  {
    documentPath: "/v1/openapi.json",
    pagePath: "/docs",
    title: "Tollgate API",
    description: `Billing and webhooks, as Polar's public API: @polar-sh/sdk works with this site as its server URL. Answers take the shapes of the dated version a request names in its \`Polar-Version\` header (${API_VERSIONS.join(", ")}; SDK 1.x names the one of its import path); a request naming none, as SDK 0.47's, gets the newest (${NEWEST_API_VERSION}).`,
    services: ["billing", "webhook-dispatcher"],
    dated: true,
  },
  {
    documentPath: "/api/auth/openapi.json",
    pagePath: "/docs/auth",
    title: "Tollgate accounts API",
    description: "Accounts, sessions, admin and organizations, as better-auth's protocol: better-auth's own client works with this site.",
    services: ["auth", "organization"],
    dated: false,
  },
];

/** How long a merged document is kept before the services are asked again (a new release may have changed them). */
const CACHE_MS = 60_000;

/**
 * A section's name as the reference's menu shows it: the services tag as Polar's paths are named
 * (`custom-fields`, `license_keys`, `oauth2/organization_access_tokens`), the menu in words.
 */
const sectionName = (tag: string) =>
  tag
    .split("/")
    .map((part) => part.replace(/[-_]/g, " "))
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(": ");

/**
 * The schema without the bounds zod gives every integer (±2^53−1): they say nothing to a reader, who
 * would take 9007199254740991 for a real limit. Real bounds (a page's 100) stay.
 */
function withoutSafeIntegerBounds<Value>(value: Value): Value {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds) as Value;
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).filter(([key, bound]) => !((key === "minimum" || key === "maximum") && Math.abs(Number(bound)) === Number.MAX_SAFE_INTEGER));
  return Object.fromEntries(entries.map(([key, inner]) => [key, withoutSafeIntegerBounds(inner)])) as Value;
}

/**
 * The services' documents as one: paths side by side, components (the same kit schemas in each)
 * merged by name, sections named in words in alphabetical order. Redoc writes the title with the
 * version after it: a dated API's is the Polar-Version it is in.
 */
function merge(api: PublishedApi, documents: OpenApiDocument[], version: ApiVersion): OpenApiDocument {
  const components: Record<string, Record<string, unknown>> = {};
  for (const document of documents) {
    for (const [kind, entries] of Object.entries(document.components ?? {})) components[kind] = { ...components[kind], ...entries };
  }
  const paths = Object.assign({}, ...documents.map((document) => document.paths ?? {})) as NonNullable<OpenApiDocument["paths"]>;
  const tags = [...new Set(Object.values(paths).flatMap((operations) => Object.values(operations).flatMap((operation) => operation.tags ?? [])))];
  return withoutSafeIntegerBounds({
    openapi: "3.1.0",
    info: { title: api.title, version: api.dated ? version : (documents[0]?.info.version ?? "1"), description: api.description },
    tags: tags.map((name) => ({ name, "x-displayName": sectionName(name) })).sort((one, other) => one["x-displayName"].localeCompare(other["x-displayName"])),
    paths,
    components,
    ...(documents.some((document) => document.security) ? { security: documents.find((document) => document.security)?.security } : {}),
  });
}

/**
 * The reference page: Redoc, from the site's own build (the web app ships its bundle under /docs),
 * reading the merged document. Its search runs
 * in a worker Redoc makes from a blob, which the site's policy otherwise forbids.
 */
function referencePage(api: PublishedApi, version: ApiVersion): string {
  const links = APIS.map((other) => (other === api ? `<strong>${other.title}</strong>` : `<a href="${other.pagePath}">${other.title}</a>`)).join(" · ");
  const document = api.dated ? `${api.documentPath}?version=${version}` : api.documentPath;
  const versions = api.dated
    ? `<nav aria-label="API versions">Polar-Version: ${API_VERSIONS.map((each) => (each === version ? `<strong>${each}</strong>` : `<a href="${api.pagePath}?version=${each}">${each}</a>`)).join(" · ")}</nav>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${api.title}${api.dated ? ` ${version}` : ""} — reference</title>
<style>body{margin:0;font-family:system-ui,sans-serif}nav{padding:.75rem 1.25rem;border-bottom:1px solid #ddd;font-size:.9rem}nav a{color:#2b4acb}</style>
</head>
<body>
<nav aria-label="API references">${links} · <a href="${document}">OpenAPI document</a> · <a href="/">Tollgate</a></nav>
${versions}
<redoc spec-url="${document}" hide-download-button></redoc>
<script src="/docs/redoc.standalone.js"></script>
</body>
</html>
`;
}

const PAGE_POLICY = "default-src 'self'; script-src 'self'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'";

/**
 * Publishes each API's OpenAPI document, merged from what its services declare (each serves its own at
 * `/openapi.json`, a path the gateway never forwards), and a reference page for each at `/docs…`.
 */
export function mountApiDocs(app: Express, routes: Upstream[], { signer, logger }: { signer: IdentitySigner; logger: Logger }): void {
  const cached = new Map<string, { document: OpenApiDocument; until: number }>();

  /** A service's document in an API version, from the first of its replicas that answers. */
  async function documentOf(upstream: Upstream, version: ApiVersion): Promise<OpenApiDocument> {
    let failure: unknown = new Error(`${upstream.name} has no replicas`);
    for (const target of upstream.targets) {
      try {
        const headers = { [IDENTITY_HEADER]: signer.sign({ kind: "anonymous" }), [API_VERSION_HEADER]: version };
        const response = await fetch(new URL("/openapi.json", target), { headers, signal: AbortSignal.timeout(5_000) });
        if (response.ok) return (await response.json()) as OpenApiDocument;
        failure = new Error(`${upstream.name} answered ${response.status}`);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }

  /**
   * Each API's document in the version asked: `/v1`'s differ by Polar-Version, which polarApiVersions
   * has settled, or by `?version=`, which a reference page can name where it cannot send a header.
   */
  async function publish(api: PublishedApi, version: ApiVersion, res: Response): Promise<void> {
    const key = `${api.documentPath} ${version}`;
    const fresh = cached.get(key);
    if (fresh && fresh.until > Date.now()) {
      res.json(fresh.document);
      return;
    }
    try {
      const services = api.services.map((name) => routes.find((upstream) => upstream.name === name)).filter((upstream) => upstream !== undefined);
      const document = merge(api, await Promise.all(services.map((upstream) => documentOf(upstream, version))), version);
      cached.set(key, { document, until: Date.now() + CACHE_MS });
      res.json(document);
    } catch (error) {
      logger.warn({ err: error, document: api.documentPath }, "an API description could not be gathered");
      // The last one gathered is better than none while a service restarts.
      if (fresh) res.json(fresh.document);
      else res.status(503).json({ error: "ServiceUnavailable", detail: "the API description cannot be gathered right now; try again shortly" });
    }
  }

  /**
   * The version `?version=` names, else the header's (polarApiVersions has settled it on `/v1`); one
   * Tollgate does not answer in is refused as the header's is, and null is returned. An API without
   * versions is asked its only document.
   */
  function versionAsked(api: PublishedApi, req: Request, res: Response): ApiVersion | null {
    const asked = api.dated ? (req.query.version ?? apiVersionOf(req.headers)) : NEWEST_API_VERSION;
    if (isApiVersion(asked)) return asked;
    res.status(404).json({ detail: "Not Found" });
    return null;
  }

  for (const api of APIS) {
    app.get(api.documentPath, (req, res, next) => {
      const version = versionAsked(api, req, res);
      if (version) publish(api, version, res).catch(next);
    });
    app.get(api.pagePath, (req, res) => {
      const version = versionAsked(api, req, res);
      if (!version) return;
      res.setHeader("content-security-policy", PAGE_POLICY);
      res.type("html").send(referencePage(api, version));
    });
  }
}
