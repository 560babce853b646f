import type { Express, Request, Response } from "express";
import { IDENTITY_HEADER } from "@tollgate/proto";
import { API_VERSION_HEADER, apiVersionOf, type ApiVersion, type IdentitySigner, type Logger } from "@tollgate/kit";
import type { Upstream } from "./routes.js";

/** An OpenAPI document, as the services serve them: only the parts merged here are looked into. */
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths?: Record<string, unknown>;
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
}

const APIS: PublishedApi[] = [
  {
    documentPath: "/v1/openapi.json",
    pagePath: "/docs",
    title: "Tollgate API (/v1)",
    description: "Billing and webhooks, as Polar's public API: @polar-sh/sdk works with this site as its server URL.",
    services: ["billing", "webhook-dispatcher"],
  },
  {
    documentPath: "/api/auth/openapi.json",
    pagePath: "/docs/auth",
    title: "Tollgate accounts API (/api/auth)",
    description: "Accounts, sessions, admin and organizations, as better-auth's protocol: better-auth's own client works with this site.",
    services: ["auth", "organization"],
  },
];

/** How long a merged document is kept before the services are asked again (a new release may have changed them). */
const CACHE_MS = 60_000;

/** The services' documents as one: paths side by side, components (the same kit schemas in each) merged by name. */
function merge(api: PublishedApi, documents: OpenApiDocument[]): OpenApiDocument {
  const components: Record<string, Record<string, unknown>> = {};
  for (const document of documents) {
    for (const [kind, entries] of Object.entries(document.components ?? {})) components[kind] = { ...components[kind], ...entries };
  }
  return {
    openapi: "3.1.0",
    info: { title: api.title, version: documents[0]?.info.version ?? "1", description: api.description },
    paths: Object.assign({}, ...documents.map((document) => document.paths ?? {})) as Record<string, unknown>,
    components,
    ...(documents.some((document) => document.security) ? { security: documents.find((document) => document.security)?.security } : {}),
  };
}

/**
 * The reference page: Redoc, from the site's own build (the web app ships its bundle under /docs),
 * reading the merged document. Its search runs
 * in a worker Redoc makes from a blob, which the site's policy otherwise forbids.
 */
function referencePage(api: PublishedApi): string {
  const links = APIS.map((other) => (other === api ? `<strong>${other.title}</strong>` : `<a href="${other.pagePath}">${other.title}</a>`)).join(" · ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${api.title} — reference</title>
<style>body{margin:0;font-family:system-ui,sans-serif}nav{padding:.75rem 1.25rem;border-bottom:1px solid #ddd;font-size:.9rem}nav a{color:#2b4acb}</style>
</head>
<body>
<nav aria-label="API references">${links} · <a href="${api.documentPath}">OpenAPI document</a> · <a href="/">Tollgate</a></nav>
<redoc spec-url="${api.documentPath}" hide-download-button></redoc>
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

  /** Each API's document in the version asked (`/v1`'s differ by Polar-Version, which polarApiVersions has settled). */
  async function publish(api: PublishedApi, req: Request, res: Response): Promise<void> {
    const version = apiVersionOf(req.headers);
    const key = `${api.documentPath} ${version}`;
    const fresh = cached.get(key);
    if (fresh && fresh.until > Date.now()) {
      res.json(fresh.document);
      return;
    }
    try {
      const services = api.services.map((name) => routes.find((upstream) => upstream.name === name)).filter((upstream) => upstream !== undefined);
      const document = merge(api, await Promise.all(services.map((upstream) => documentOf(upstream, version))));
      cached.set(key, { document, until: Date.now() + CACHE_MS });
      res.json(document);
    } catch (error) {
      logger.warn({ err: error, document: api.documentPath }, "an API description could not be gathered");
      // The last one gathered is better than none while a service restarts.
      if (fresh) res.json(fresh.document);
      else res.status(503).json({ error: "ServiceUnavailable", detail: "the API description cannot be gathered right now; try again shortly" });
    }
  }

  for (const api of APIS) {
    app.get(api.documentPath, (req, res, next) => {
      publish(api, req, res).catch(next);
    });
    app.get(api.pagePath, (_req, res) => {
      res.setHeader("content-security-policy", PAGE_POLICY);
      res.type("html").send(referencePage(api));
    });
  }
}
