"use client";

import { useState } from "react";

/** The body rendered (sanitized Markdown, made on the server) or raw, one at a time. */
export function BodyTabs({ rendered, raw }: { rendered: React.ReactNode; raw: string }) {
  const [tab, setTab] = useState<"rendered" | "raw">("rendered");
  return (
    <div>
      <div className="mb-3 flex gap-1" role="tablist">
        {(["rendered", "raw"] as const).map((name) => (
          <button
            key={name}
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            className={`rounded-md px-3 py-1 text-sm ${tab === name ? "bg-slate-900 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
          >
            {name === "rendered" ? "Rendered" : "Raw SKILL.md"}
          </button>
        ))}
      </div>
      <div hidden={tab !== "rendered"} data-testid="rendered-body" className="markdown">
        {rendered}
      </div>
      <pre hidden={tab !== "raw"} data-testid="raw-skill" className="overflow-x-auto whitespace-pre-wrap rounded-md bg-slate-50 p-4 font-mono text-xs">
        {raw}
      </pre>
    </div>
  );
}
