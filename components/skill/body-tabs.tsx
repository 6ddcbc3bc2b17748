/**
 * The body rendered (HTML made safe on the server) or raw, one at a time. The choice is a link,
 * not a client toggle: the page carries one copy of the body, however big, and works without script.
 */
export function BodyTabs({
  view,
  hrefs,
  html,
  raw,
}: {
  view: "rendered" | "raw";
  hrefs: { rendered: string; raw: string };
  html: string | null;
  raw: string | null;
}) {
  return (
    <div>
      <nav className="mb-3 flex gap-1" aria-label="Body view">
        {(["rendered", "raw"] as const).map((name) => (
          <a
            key={name}
            href={hrefs[name]}
            aria-current={view === name ? "page" : undefined}
            className={`rounded-md px-3 py-1 text-sm ${view === name ? "bg-slate-900 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
          >
            {name === "rendered" ? "Rendered" : "Raw SKILL.md"}
          </a>
        ))}
      </nav>
      {view === "rendered" ? (
        <div data-testid="rendered-body" className="prose-skill" dangerouslySetInnerHTML={{ __html: html ?? "" }} />
      ) : (
        <pre data-testid="raw-skill" className="overflow-x-auto whitespace-pre-wrap rounded-md bg-slate-50 p-4 font-mono text-xs">
          {raw}
        </pre>
      )}
    </div>
  );
}
