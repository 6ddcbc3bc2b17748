"use client";

import type { DiffRow } from "@/lib/learned/side-by-side";
import { UnifiedDiff } from "./unified-diff";
import type { DiffViewChoice, DiffViewName } from "./view-choice";
import { SideBySide } from "@/components/side-by-side";
import { ViewLinks } from "@/components/ui/view-links";

/** Where no view is asked for: split where two columns fit (md, 768 px, and wider), unified on a phone. */
const DEFAULT_SHOWN: Record<DiffViewName, string> = { split: "hidden md:block", unified: "md:hidden" };

/**
 * A diff, split or unified as the page's `?view=` asks, with links between the two. Asked for
 * nothing, the page carries both and the screen's width picks (CSS, so no script and no flash): two
 * columns of a few words each read worse on a phone than one column. Split on a phone scrolls
 * sideways in its own box. Each view carries its own links, so the current one is marked right.
 * A client component so that the page's payload carries the rows once, not both views' markup.
 * `hidden`: rows cut off after these (DiffView), said at the end of the table.
 */
export function DiffViews({
  rows,
  hidden,
  left,
  right,
  choice,
}: {
  rows: DiffRow[];
  hidden: number;
  left: string;
  right: string;
  choice: DiffViewChoice;
}) {
  const shown = choice.view ? [choice.view] : (Object.keys(DEFAULT_SHOWN) as DiffViewName[]);
  return (
    <div data-testid="diff-view">
      {shown.map((view) => (
        <div key={view} data-view={view} className={choice.view ? "" : DEFAULT_SHOWN[view]}>
          <ViewLinks
            label={`View of ${left} against ${right}`}
            current={view}
            links={[
              { view: "split", text: "Split", href: choice.hrefs.split },
              { view: "unified", text: "Unified", href: choice.hrefs.unified },
            ]}
          />
          {view === "split" ? (
            <SideBySide rows={rows} hidden={hidden} left={left} right={right} />
          ) : (
            <UnifiedDiff rows={rows} hidden={hidden} left={left} right={right} />
          )}
        </div>
      ))}
    </div>
  );
}
