import { defineEndpoint, type Endpoint } from "@tollgate/kit";
import type { Parts } from "../parts.js";
import { escapeHtml } from "../http/html.js";
import { preferredLocale, type Locale } from "../i18n/locales.js";
import { translate } from "../i18n/translate.js";
import { findCurrentSession } from "../sessions/current-session.js";
import { ApiAnswers, ErrorPageQuery } from "./schemas.js";

/** Where the error code goes in its translated sentence, so the code alone is set as code. */
const CODE_SLOT = "\u0000";

/** Where flows that cannot go back to the app (a broken link, a failed callback) end up, in the reader's language. */
function errorPage(locale: Locale, code: string): string {
  const text = (id: Parameters<typeof translate>[1]) => escapeHtml(translate(locale, id));
  const codeLine = escapeHtml(translate(locale, "errorPage.code", { code: CODE_SLOT })).replace(CODE_SLOT, `<code>${escapeHtml(code)}</code>`);
  return `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text("errorPage.title")}</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f7f8fa;color:#1b1f24}
main{max-width:32rem;padding:2rem;text-align:center}code{background:#eceef1;padding:.15rem .4rem;border-radius:.25rem}
a{display:inline-block;margin-top:1.5rem;color:#fff;background:#1b1f24;padding:.6rem 1.2rem;border-radius:.4rem;text-decoration:none}</style>
</head>
<body><main>
<h1>${text("errorPage.heading")}</h1>
<p>${text("errorPage.body")}</p>
<p>${codeLine}</p>
<a href="/">${text("errorPage.back")}</a>
</main></body>
</html>`;
}

export function pageEndpoints(auth: Parts): Endpoint[] {
  return [
    defineEndpoint("/ok", { method: "GET", response: ApiAnswers, summary: "Check that the API answers", tag: "Default" }, () => Promise.resolve({ ok: true })),
    defineEndpoint(
      "/error",
      {
        method: "GET",
        query: ErrorPageQuery,
        produces: "text/html",
        summary: "The page a flow that cannot return to the app ends on, in the signed-in user's language, else the browser's",
        tag: "Default",
      },
      async ({ query, identity, req, res }) => {
        const current = await findCurrentSession(auth, identity, req);
        // The page differs by the browser's languages: a cache must not hand one reader's to another.
        res.vary("Accept-Language");
        res.type("html").send(errorPage(preferredLocale(current?.user, req), query.error || "Unknown"));
      },
    ),
  ];
}
