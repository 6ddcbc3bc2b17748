import { ViewLinks } from "@/components/ui/view-links";

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
      <ViewLinks
        label="Body view"
        current={view}
        links={[
          { view: "rendered", text: "Rendered", href: hrefs.rendered },
          { view: "raw", text: "Raw SKILL.md", href: hrefs.raw },
        ]}
      />
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
