import { z } from "zod";
import { defineEndpoint, type Endpoint } from "@tollgate/kit";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char);

/** Where flows that cannot go back to the app (a broken link, a failed callback) end up. */
function errorPage(code: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Error</title>
<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;background:#f7f8fa;color:#1b1f24}
main{max-width:32rem;padding:2rem;text-align:center}code{background:#eceef1;padding:.15rem .4rem;border-radius:.25rem}
a{display:inline-block;margin-top:1.5rem;color:#fff;background:#1b1f24;padding:.6rem 1.2rem;border-radius:.4rem;text-decoration:none}</style>
</head>
<body><main>
<h1>Something went wrong</h1>
<p>We could not complete your request. Please try again, or contact support if the problem continues.</p>
<p>Error code: <code>${escapeHtml(code)}</code></p>
<a href="/">Return to Application</a>
</main></body>
</html>`;
}

export function pageEndpoints(): Endpoint[] {
  return [
    defineEndpoint("/ok", { method: "GET", response: z.strictObject({ ok: z.boolean() }), summary: "Check that the API answers", tag: "Default" }, () => Promise.resolve({ ok: true })),
    defineEndpoint(
      "/error",
      { method: "GET", query: z.object({ error: z.string().optional() }), produces: "text/html", summary: "The page a flow that cannot return to the app ends on", tag: "Default" },
      ({ query, res }) => {
        res.type("html").send(errorPage(query.error || "Unknown"));
        return Promise.resolve();
      },
    ),
  ];
}
