"use client";

import Form from "next/form";
import { isNumeric, type TableQuery } from "@/lib/overview/table";

/**
 * The table's filter: a GET form, so the query lands in the URL and the server filters. Choosing
 * what to show applies at once; the text applies on Enter or with the button.
 */
export function SkillHealthFilters({ action, query }: { action: string; query: TableQuery }) {
  return (
    <Form action={action} scroll={false} className="flex flex-wrap items-center gap-3">
      <input
        name="q"
        aria-label="Filter skills"
        placeholder="Filter by name or source"
        defaultValue={query.q}
        className="w-64 max-w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm"
      />
      <select
        // A link that changes the filter (a headline flag) keeps this form: a new key shows what the URL now asks.
        key={query.show}
        name="show"
        aria-label="Show"
        defaultValue={query.show}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
        className="rounded-md border border-slate-300 px-2 py-1.5 text-sm"
      >
        <option value="all">All skills</option>
        <option value="active">In the listing</option>
        <option value="shadowed">Shadowed</option>
        <option value="draft">Drafts</option>
        <option value="never">Never loaded</option>
        <option value="typed">Only typed (description does not trigger)</option>
        <option value="loadedThenFailing">Loaded, then failing</option>
        <option value="costly">Costly</option>
        <option value="lint">With lint findings</option>
      </select>
      {query.sort !== "name" && <input type="hidden" name="sort" value={query.sort} />}
      {query.descending !== isNumeric(query.sort) && <input type="hidden" name="dir" value={query.descending ? "desc" : "asc"} />}
      <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50">
        Apply
      </button>
    </Form>
  );
}
