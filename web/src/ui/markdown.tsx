import type { ReactNode } from "react";

/**
 * The Markdown a seller may write in a product's description ("Markdown is allowed"), shown to
 * buyers: paragraphs, lists, **bold**, *italic*, `code` and links. It is parsed into a tree and drawn
 * with React, which escapes every text, so no HTML the seller wrote reaches the page; links go only to
 * web and mail addresses, in a new tab that cannot reach back; images are shown as their words, so no
 * picture from elsewhere is loaded.
 */

export type Inline = { kind: "text"; text: string } | { kind: "strong" | "em"; children: Inline[] } | { kind: "code"; text: string } | { kind: "link"; href: string; children: Inline[] };
export type Block = { kind: "paragraph"; children: Inline[] } | { kind: "list"; ordered: boolean; items: Inline[][] };

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** The address a link may go to, or null: absolute, and only on the web or to a mailbox. */
export function safeHref(address: string): string | null {
  try {
    const url = new URL(address.trim());
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const LIST_ITEM = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;

/** The blocks of `source`: lines run together into paragraphs until a blank line; list lines into lists. */
export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", children: parseInline(paragraph.join(" ")) });
    paragraph = [];
  };
  const endList = () => {
    if (list) blocks.push({ kind: "list", ordered: list.ordered, items: list.items.map(parseInline) });
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    const item = LIST_ITEM.exec(raw);
    if (item) {
      endParagraph();
      const ordered = item[2] !== undefined;
      if (list && list.ordered !== ordered) endList();
      list ??= { ordered, items: [] };
      list.items.push(item[3] ?? "");
    } else if (line === "") {
      endParagraph();
      endList();
    } else if (list && /^\s/.test(raw)) {
      // An indented line goes on with the item above it.
      list.items[list.items.length - 1] += ` ${line}`;
    } else {
      endList();
      // A heading is shown as a bold line: descriptions sit under the product's own heading.
      const heading = /^#{1,6}\s+(.*)$/.exec(line);
      paragraph.push(heading ? `**${heading[1]}**` : line);
    }
  }
  endParagraph();
  endList();
  return blocks;
}

/** Where `marker` closes a span opened just before `from`, or -1: not right after the opening, and never before a space. */
function closing(text: string, marker: string, from: number): number {
  for (let at = text.indexOf(marker, from + 1); at !== -1; at = text.indexOf(marker, at + 1)) {
    const endsWord = marker !== "_" || !/[\p{L}\p{N}]/u.test(text[at + 1] ?? "");
    if (text[at - 1] !== " " && text[at - 1] !== "\\" && !(marker === "*" && text[at + 1] === "*") && endsWord) return at;
  }
  return -1;
}

/** The spans of one paragraph or list item. */
export function parseInline(text: string): Inline[] {
  const spans: Inline[] = [];
  let plain = "";
  const push = (span: Inline) => {
    if (plain) spans.push({ kind: "text", text: plain });
    plain = "";
    spans.push(span);
  };
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const char = text[at] ?? "";
    if (char === "\\" && at + 1 < text.length && /[\\`*_[\]()!#+\-.]/.test(text[at + 1] ?? "")) {
      plain += text[at + 1];
      at += 2;
      continue;
    }
    if (char === "`") {
      const end = text.indexOf("`", at + 1);
      if (end > at + 1) {
        push({ kind: "code", text: text.slice(at + 1, end) });
        at = end + 1;
        continue;
      }
    }
    if (rest.startsWith("**") && text[at + 2] !== " ") {
      const end = closing(text, "**", at + 1);
      if (end > at + 2) {
        push({ kind: "strong", children: parseInline(text.slice(at + 2, end)) });
        at = end + 2;
        continue;
      }
    }
    // An underscore inside a word (snake_case, __name) is a letter of it, as CommonMark reads it.
    const inWord = char === "_" && /[\p{L}\p{N}_]/u.test(text[at - 1] ?? "");
    if ((char === "*" || char === "_") && !inWord && text[at + 1] !== " " && text[at + 1] !== char) {
      const end = closing(text, char, at);
      if (end > at + 1) {
        push({ kind: "em", children: parseInline(text.slice(at + 1, end)) });
        at = end + 1;
        continue;
      }
    }
    const link = /^(!?)\[([^\]]*)\]\(([^()\s]*)\)/.exec(rest);
    if (link) {
      const [whole, image, words = "", address = ""] = link;
      const href = safeHref(address);
      const children = parseInline(words);
      // An image is shown as its words, a link somewhere unsafe as its words alone.
      if (image || !href) for (const child of children) push(child);
      else push({ kind: "link", href, children });
      at += whole.length;
      continue;
    }
    plain += char;
    at += 1;
  }
  if (plain) spans.push({ kind: "text", text: plain });
  return spans;
}

function InlineSpans({ spans }: { spans: Inline[] }): ReactNode {
  return spans.map((span, index) => {
    switch (span.kind) {
      case "text":
        return span.text;
      case "code":
        return <code key={index}>{span.text}</code>;
      case "strong":
        return (
          <strong key={index}>
            <InlineSpans spans={span.children} />
          </strong>
        );
      case "em":
        return (
          <em key={index}>
            <InlineSpans spans={span.children} />
          </em>
        );
      case "link":
        return (
          <a key={index} href={span.href} target="_blank" rel="noopener noreferrer">
            <InlineSpans spans={span.children} />
          </a>
        );
    }
  });
}

function DrawnBlock({ block }: { block: Block }) {
  if (block.kind === "paragraph")
    return (
      <p>
        <InlineSpans spans={block.children} />
      </p>
    );
  const List = block.ordered ? "ol" : "ul";
  return (
    <List>
      {block.items.map((item, index) => (
        <li key={index}>
          <InlineSpans spans={item} />
        </li>
      ))}
    </List>
  );
}

/** A seller's Markdown, drawn safely. */
export function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ? `markdown ${className}` : "markdown"}>
      {parseMarkdown(text).map((block, index) => (
        <DrawnBlock key={index} block={block} />
      ))}
    </div>
  );
}
