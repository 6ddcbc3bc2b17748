import { DASHBOARD_SECTIONS } from "../sections";

/**
 * The page a person gets while the database cannot be reached: a 503 that says so and when to try
 * again, instead of the framework's 500. Plain HTML: nothing of the app can render without data.
 */
export const UNAVAILABLE_RETRY_SECONDS = { unavailable: 5, busy: 1 } as const;

const WORDS = {
  unavailable: {
    title: "Database unavailable",
    heading: "The database is unavailable",
    text: "Skillgate cannot reach its database right now, so this page cannot be shown. Nothing you saved is lost.",
    after:
      'It usually comes back on its own: <a href="">try again</a> in a few seconds. If it stays down, tell whoever runs Skillgate for your team.',
  },
  busy: {
    title: "Busy",
    heading: "Skillgate is busy",
    text: "The database did not answer in time: it is busy with other requests. Nothing you saved is lost.",
    after: '<a href="">Try again</a> in a moment.',
  },
} as const;

/** The team's sections, linked, when the page asked for is one of a team's: a way on that needs no data. */
function teamNavigation(path: string): string {
  const slug = /^\/t\/([a-z0-9-]{1,64})(?:\/|$)/.exec(path)?.[1];
  if (!slug) return "";
  const links = DASHBOARD_SECTIONS.map((section) => `<a href="/t/${slug}${section.href}">${section.label}</a>`).join("\n");
  return `<nav aria-label="Sections">\n${links}\n</nav>\n`;
}

export function unavailablePage(nonce: string, path: string, why: keyof typeof WORDS): string {
  const words = WORDS[why];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${words.title} · Skillgate</title>
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;padding:1rem}
main{max-width:32rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:2rem}
h1{font-size:1.25rem;margin:0 0 .75rem}
p{margin:.5rem 0;line-height:1.5}
a{color:#3730a3}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin-top:1rem;padding-top:1rem;border-top:1px solid #e2e8f0;font-size:.875rem}
</style>
</head>
<body>
<main>
<h1>${words.heading}</h1>
<p>${words.text}</p>
<p>${words.after}</p>
${teamNavigation(path)}</main>
</body>
</html>`;
}
