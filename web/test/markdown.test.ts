import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown, parseMarkdown, safeHref } from "../src/ui/markdown";

const drawn = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("a seller's Markdown, as buyers see it", () => {
  it("draws paragraphs, lists, bold, italic, code and links", () => {
    expect(drawn("**Acme Cloud** is *fast*.\nSee `acme --help`.\n\n- one\n- two [docs](https://acme.example/docs)\n\n1. first\n2. second")).toBe(
      '<div class="markdown"><p><strong>Acme Cloud</strong> is <em>fast</em>. See <code>acme --help</code>.</p>' +
        '<ul><li>one</li><li>two <a href="https://acme.example/docs" target="_blank" rel="noopener noreferrer">docs</a></li></ul>' +
        "<ol><li>first</li><li>second</li></ol></div>",
    );
    expect(parseMarkdown("# Title\ntext")).toEqual([{ kind: "paragraph", children: [{ kind: "strong", children: [{ kind: "text", text: "Title" }] }, { kind: "text", text: " text" }] }]);
    expect(drawn("2 * 3 * 4, snake_case_name, window.__pwned and _this_")).toBe('<div class="markdown"><p>2 * 3 * 4, snake_case_name, window.__pwned and <em>this</em></p></div>');
  });

  it("never lets HTML, scripts, unsafe links or pictures from elsewhere through", () => {
    const hostile = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      "[click](javascript:alert(1))",
      "[click](JaVaScRiPt:alert(1))",
      "[click](java\tscript:alert(1))",
      "[click](data:text/html,<script>alert(1)</script>)",
      "[x](vbscript:msgbox)",
      "[y](javascript:alert%281%29)",
      "[fine](https://fine.example)",
      '**<a href="javascript:alert(1)">bold</a>**',
      "![tracker](https://evil.example/pixel.png)",
      '[a](https://ok.example/"onmouseover="alert(1))',
    ].join("\n\n");
    const html = drawn(hostile);
    // Only the tags the subset draws, with no attribute but a link's safe address.
    expect(html.match(/<[a-z][^>]*>/g)?.filter((tag) => !/^<(div class="markdown"|p|strong|em|code|ul|ol|li|a href="(https?|mailto):[^"]*" target="_blank" rel="noopener noreferrer")>$/.test(tag))).toEqual([]);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<p>tracker</p>");
    expect(html).toContain("<p>y</p>");
    expect(html.match(/<a /g)).toHaveLength(1);
  });

  it("links only to the web and to mailboxes", () => {
    expect(safeHref("https://a.example/x")).toBe("https://a.example/x");
    expect(safeHref("mailto:help@a.example")).toBe("mailto:help@a.example");
    expect(safeHref(" javascript:alert(1)")).toBeNull();
    expect(safeHref("/relative")).toBeNull();
    expect(safeHref("file:///etc/passwd")).toBeNull();
  });
});
