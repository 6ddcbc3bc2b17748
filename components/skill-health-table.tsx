import Link from "next/link";
import { PageLinks } from "@/components/ui/pager";
import type { SkillHealthRow } from "@/lib/overview/table";
import { isNumeric, PAGE_SIZE, sourceLabel, tableSearch, type SortKey, type TablePage, type TableQuery } from "@/lib/overview/table";
import { Card } from "@/components/ui/card";
import { Table } from "@/components/ui/table";
import { SkillHealthFilters } from "./skill-health-filters";
import { When } from "@/components/ui/when";
import { ViewSparkline } from "./view-sparkline";
import { sparklineScale } from "@/lib/overview/sparkline";

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: "name", label: "Skill" },
  { key: "source", label: "Source" },
  { key: "version", label: "Version" },
  { key: "status", label: "Status" },
  { key: "lint", label: "Lint" },
  { key: "views7d", label: "Views 7d" },
  { key: "views30d", label: "Views 30d" },
  { key: "proactive", label: "Proactive" },
  { key: "typed", label: "Typed" },
  { key: "lastViewedAt", label: "Last viewed" },
  { key: "successRate", label: "Success" },
  { key: "recall", label: "Recall" },
];

/** The address of the table with `change` applied to its query; any change but a page starts over on page 1. */
type TableHref = (change: Partial<TableQuery>) => string;

/** Every cell's room: narrow, so the thirteen columns fit a 1280 px laptop without scrolling sideways. */
const CELL = "px-2 py-2";
/** A cell a phone's card leaves out: the card says the name, status, version, 7-day views and success. */
const DESKTOP = `${CELL} max-sm:hidden`;

/**
 * The overview's skill health table: one page of it, filtered and sorted on the server
 * (lib/overview/table.ts). Sorting and paging are links, so they work before any script runs.
 * None prefetches: a page of rows and twelve sort orders would each be rendered on every visit.
 * On a phone each row is a card (components/ui/table.tsx).
 */
export function SkillHealthTable({ team, table, query }: { team: string; table: TablePage; query: TableQuery }) {
  const href: TableHref = (change) => `/t/${team}${tableSearch({ ...query, page: 1, ...change })}`;
  const scale = sparklineScale(table.rows);
  return (
    <Card flush id="skill-health">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 p-3">
        <SkillHealthFilters action={`/t/${team}`} query={query} />
        <span className="ml-auto text-sm text-slate-500" data-testid="row-count">
          {table.matching} of {table.total} skills
        </span>
      </div>
      <Table
        label="Skill health"
        boxed
        cards
        head={COLUMNS.flatMap((column) => {
          const header = <SortableHeader key={column.key} column={column} query={query} href={href} />;
          // The days behind the 30-day figure, next to it; bars do not sort.
          return column.key !== "views30d"
            ? [header]
            : [
                header,
                <th key="daily" className={`${CELL} font-medium uppercase`}>
                  Daily views
                  <span className="block text-[11px] font-normal tracking-normal normal-case" data-testid="sparkline-scale">
                    {scale === 0 ? "none in 30 days" : `full bar: ${scale} ${scale === 1 ? "view" : "views"}`}
                  </span>
                </th>,
              ];
        })}
      >
        {table.rows.map((row: SkillHealthRow) => (
          <HealthRow key={`${row.name}/${row.status}/${row.folder}`} team={team} row={row} scale={scale} />
        ))}
      </Table>
      {table.matching === 0 && <p className="border-t border-slate-100 px-3 py-4 text-sm text-slate-500">No skill matches this filter.</p>}
      {table.pages > 1 && <Pages table={table} href={href} />}
    </Card>
  );
}

/** A column heading that sorts by it: numbers biggest first, text A to Z; again reverses. */
function SortableHeader({ column, query, href }: { column: (typeof COLUMNS)[number]; query: TableQuery; href: TableHref }) {
  const sorted = query.sort === column.key;
  return (
    <th
      className={`${CELL} ${isNumeric(column.key) ? "text-right" : ""}`}
      aria-sort={sorted ? (query.descending ? "descending" : "ascending") : "none"}
    >
      <Link
        prefetch={false}
        className="font-medium uppercase hover:text-slate-900"
        href={href({ sort: column.key, descending: sorted ? !query.descending : isNumeric(column.key) })}
        scroll={false}
      >
        {column.label}
        {sorted ? (query.descending ? " ↓" : " ↑") : ""}
      </Link>
    </th>
  );
}

/** A card's name keeps to one line: a name too long for a phone ends in an ellipsis, and says itself whole in its title. */
const NAME = "font-medium max-sm:block max-sm:truncate";

function HealthRow({ team, row, scale }: { team: string; row: SkillHealthRow; scale: number }) {
  return (
    <tr className="border-t border-slate-100 align-top" data-skill={row.name} data-status={row.status}>
      <td className={`${CELL} max-sm:w-full`}>
        {row.status === "shadowed" ? (
          <span className={`${NAME} text-slate-500 line-through`} title={row.name} data-name>
            {row.name}
          </span>
        ) : (
          <Link
            prefetch={false}
            href={`/t/${team}/skills/${row.name}`}
            className={`${NAME} text-indigo-700 hover:underline`}
            title={row.name}
            data-name
          >
            {row.name}
          </Link>
        )}
        {row.collision && <div className="text-xs text-amber-700">{row.collision}</div>}
        {row.typedOnly && <TypedOnlyFlag team={team} name={row.name} />}
        {row.loadedThenFailing && (
          <ProductionFlag team={team} name={row.name} flag="loadedThenFailing" text="loaded, then failing" link="see the failing tools" />
        )}
        {row.costly && <ProductionFlag team={team} name={row.name} flag="costly" text="costly" link="see the cost per activation" />}
      </td>
      <td className={DESKTOP}>
        <span className="font-mono text-xs" title={row.folder ?? undefined}>
          {sourceLabel(row)}
        </span>
        {row.provenance && <div className="text-xs wrap-anywhere text-slate-500">{row.provenance}</div>}
      </td>
      <td className={`${CELL} text-right tabular-nums max-sm:order-1`} data-served={row.served.why}>
        v{row.version}
        {row.served.why === "pinned" && (
          <div className="text-xs whitespace-nowrap text-violet-800">
            pinned{row.served.latest !== row.version && ` · latest v${row.served.latest}`}
          </div>
        )}
        {row.labels.map(({ label, version }) => (
          <div key={label} className="text-xs whitespace-nowrap text-sky-800" data-label={label}>
            {label} → v{version}
          </div>
        ))}
        {row.tier && row.tier !== "unverified" && <div className="text-xs text-teal-700">{row.tier}</div>}
      </td>
      <td className={CELL}>
        <StatusBadge status={row.status} />
      </td>
      <td className={DESKTOP}>
        {row.lint.length === 0 ? (
          <span className="text-emerald-700">clean</span>
        ) : (
          <ul className="min-w-36 space-y-1 text-xs text-amber-800">
            {row.lint.map((finding) => (
              <li key={finding.rule} data-lint={finding.rule}>
                {finding.message}
              </li>
            ))}
          </ul>
        )}
      </td>
      <td className={`${CELL} text-right tabular-nums max-sm:order-1`} data-heading="Views 7d">
        {row.views7d}
      </td>
      <td className={`${DESKTOP} text-right tabular-nums`}>{row.views30d}</td>
      <td className={`${DESKTOP} align-middle`}>
        <ViewSparkline days={row.dailyViews} scale={scale} />
      </td>
      <td className={`${DESKTOP} text-right tabular-nums`} title="chosen by the model from its description, last 30 days (telemetry)">
        {row.proactive}
      </td>
      <td className={`${DESKTOP} text-right tabular-nums`} title="typed by a person as /name, last 30 days (telemetry)">
        {row.typed}
      </td>
      <UsageCells row={row} />
    </tr>
  );
}

/**
 * People type it, the model never chooses it (docs/telemetry.md#activations): the description is what the model decides
 * by, so that is what to fix. The skill page shows the days and the versions.
 */
function TypedOnlyFlag({ team, name }: { team: string; name: string }) {
  return (
    <div className="mt-1 min-w-40 text-xs text-amber-800" data-flag="typed-only">
      <span className="rounded bg-amber-50 px-1.5 py-0.5 font-medium">only typed — description does not trigger</span>{" "}
      <Link prefetch={false} href={`/t/${team}/skills/${name}#in-production`} className="underline hover:text-amber-950">
        improve the description
      </Link>
    </div>
  );
}

/**
 * What production telemetry says against the prompts with no skill loaded (30 days): its tools
 * fail more often beyond both intervals, or its prompts cost at least twice as much. The skill
 * page shows the figures by version.
 */
function ProductionFlag({ team, name, flag, text, link }: { team: string; name: string; flag: string; text: string; link: string }) {
  return (
    <div className="mt-1 min-w-40 text-xs text-rose-800" data-flag={flag}>
      <span className="rounded bg-rose-50 px-1.5 py-0.5 font-medium">{text}</span>{" "}
      <Link prefetch={false} href={`/t/${team}/skills/${name}#production-figures`} className="underline hover:text-rose-950">
        {link}
      </Link>
    </div>
  );
}

/** When it was last loaded, how often its recorded runs succeeded, and its recall in the latest activation run. */
function UsageCells({ row }: { row: SkillHealthRow }) {
  return (
    <>
      <td className={`${DESKTOP} text-slate-600`}>
        {row.neverLoaded ? (
          <span
            className="rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-700"
            title="no agent viewed it, and no telemetry reported it activated in 30 days"
          >
            never loaded
          </span>
        ) : row.lastViewedAt ? (
          <When at={row.lastViewedAt} />
        ) : (
          "—"
        )}
      </td>
      <td className={`${CELL} text-right whitespace-nowrap tabular-nums max-sm:order-1`} data-heading="Success">
        {row.successRate === null ? (
          "—"
        ) : (
          <>
            {Math.round(row.successRate * 100)}% <span className="text-xs text-slate-500">of {row.runs}</span>
          </>
        )}
      </td>
      <td className={`${DESKTOP} text-right tabular-nums`} title="recall in the latest activation run">
        {row.recall === null ? "—" : `${Math.round(row.recall * 100)}%`}
      </td>
    </>
  );
}

function Pages({ table, href }: { table: TablePage; href: TableHref }) {
  const first = (table.page - 1) * PAGE_SIZE + 1;
  return (
    <div className="border-t border-slate-200 px-3 pb-3">
      <PageLinks page={table.page} pages={table.pages} href={(page) => href({ page })} label="Pages of skills">
        <span className="text-slate-600" data-testid="page-of">
          Page {table.page} of {table.pages} · skills {first}–{first + table.rows.length - 1}
        </span>
      </PageLinks>
    </div>
  );
}

function StatusBadge({ status }: { status: string }) {
  const style =
    status === "active" ? "bg-emerald-50 text-emerald-800" : status === "draft" ? "bg-sky-50 text-sky-800" : "bg-amber-50 text-amber-800";
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${style}`}>{status}</span>;
}
