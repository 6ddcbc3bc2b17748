import { withQuery } from "@/lib/http/params";

/** How a diff is shown: two columns side by side, or one, as `git diff` prints it. */
export const DIFF_VIEWS = ["split", "unified"] as const;
export type DiffViewName = (typeof DIFF_VIEWS)[number];

/** The view a page's `?view=` asks for (none: each screen's default), and the link to each view, keeping the rest of the query. */
export interface DiffViewChoice {
  view: DiffViewName | undefined;
  hrefs: Record<DiffViewName, string>;
}

/** Read on the server from the page's path and query; `anchor` is where a link without script lands (the diff, not the page's top). */
export function diffViewChoice(path: string, query: Record<string, string | string[] | undefined>, anchor?: string): DiffViewChoice {
  const asked = Array.isArray(query.view) ? query.view[0] : query.view;
  const hash = anchor ? `#${anchor}` : "";
  return {
    view: DIFF_VIEWS.find((view) => view === asked),
    hrefs: {
      split: `${path}${withQuery(query, { view: "split" })}${hash}`,
      unified: `${path}${withQuery(query, { view: "unified" })}${hash}`,
    },
  };
}
