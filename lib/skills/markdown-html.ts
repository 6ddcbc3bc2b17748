import MarkdownIt from "markdown-it";

/**
 * A skill body as HTML for the dashboard (docs/dashboard.md#skill-page), safe by construction: markup written in the body
 * is escaped and shown as text (`html: false`), and links to `javascript:`, `vbscript:`, `file:`
 * and non-image `data:` URLs are not made. One HTML string, not a React element per node, so a
 * 250 KiB body renders in tens of milliseconds and sends a page proportional to its size.
 */
const markdown = new MarkdownIt({ html: false, linkify: false });

export function markdownToHtml(body: string): string {
  return markdown.render(body);
}
