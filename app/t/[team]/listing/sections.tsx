import Link from "next/link";
import type { ZodError } from "zod";
import type { LeftOutEntry } from "@/lib/listing/budget";
import { cutPage, type CutList, type CutPage } from "@/lib/listing/cut-pages";
import type { ListingBudget } from "@/lib/listing/listing";
import type { Team } from "@/lib/teams/teams";
import { CARD } from "@/components/ui/card";
import { Section } from "@/components/ui/section";
import { Stat } from "@/components/ui/stat";
import { Table } from "@/components/ui/table";
import { PageLinks } from "@/components/ui/pager";
import { cutListSearch, whatIfParams, type ListingPageQuery } from "./query";

/** Try another cap and description cut (a GET form: the what-if is in the address); nothing is saved. */
export function WhatIfForm({
  slug,
  settings,
  team,
  error,
}: {
  slug: string;
  settings: ListingBudget["settings"];
  team: Pick<Team, "listingCap" | "descMax">;
  /** Why the what-if asked for was refused, if it was. */
  error: ZodError | null;
}) {
  const isWhatIf = settings.cap !== team.listingCap || settings.descMax !== team.descMax;
  return (
    <form className={`flex flex-wrap items-end gap-3 p-4 ${CARD}`} aria-label="What-if">
      <label className="text-sm font-medium">
        Cap (characters)
        <input
          name="cap"
          type="number"
          min={1}
          max={1000000}
          defaultValue={settings.cap}
          className="mt-1 block w-36 rounded-md border border-slate-300 px-2 py-1"
        />
      </label>
      <label className="text-sm font-medium">
        Description cut (descMax)
        <input
          name="descMax"
          type="number"
          min={1}
          max={1024}
          defaultValue={settings.descMax}
          className="mt-1 block w-36 rounded-md border border-slate-300 px-2 py-1"
        />
      </label>
      <button className="rounded-md bg-indigo-700 px-4 py-1.5 text-sm font-medium text-white hover:bg-indigo-600">Show what-if</button>
      {isWhatIf && (
        <a href={`/t/${slug}/listing`} className="text-sm text-indigo-700 hover:underline">
          Back to the team&apos;s settings (cap {team.listingCap}, descMax {team.descMax})
        </a>
      )}
      {error && (
        <p role="alert" className="w-full text-sm text-red-700">
          {error.issues[0]?.path.join(".")}: {error.issues[0]?.message}. Showing the team&apos;s settings instead.
        </p>
      )}
      {isWhatIf && (
        <p className="w-full text-sm text-amber-800">
          What-if: nothing is saved; agents still get the listing at the team&apos;s settings.
        </p>
      )}
    </form>
  );
}

export function ListingFigures({ listing }: { listing: ListingBudget["listing"] }) {
  const f = listing.figures;
  return (
    <section className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="Figures">
      <Stat
        label="Characters"
        value={`${f.chars.toLocaleString("en-US")} / ${f.cap.toLocaleString("en-US")}`}
        tone={listing.truncated ? "warn" : "good"}
        note={listing.truncated ? "over the cap: cut to fit" : `${(f.cap - f.chars).toLocaleString("en-US")} to spare`}
      />
      <Stat label="Skills shown" value={`${count(f.shown)} of ${count(f.total)}`} />
      <Stat label="Descriptions dropped" value={count(f.droppedDescriptions)} tone={f.droppedDescriptions > 0 ? "warn" : "plain"} />
      <Stat label="Entries dropped" value={count(f.droppedEntries)} tone={f.droppedEntries > 0 ? "warn" : "plain"} />
    </section>
  );
}

/**
 * Descriptions descMax shortened, and what the cap cut, in the order it cut them: 50 of each list
 * at a time, each paged by its own search param, with a search over the names and the whole lists
 * as a download (at 10,000 skills the cap drops thousands).
 */
export function WhatWasCut({ slug, budget, query }: { slug: string; budget: ListingBudget; query: ListingPageQuery }) {
  const { shortened, dropped, stripped } = budget;
  const cutByCap = dropped.length + stripped.length;
  const lists = { slug, query };
  return (
    <Section aria-label="Cut from the listing" title="What was cut, and why">
      {cutByCap + shortened.length > 0 && <FindAndDownload slug={slug} query={query} />}
      {shortened.length > 0 && <ShortenedDescriptions shortened={shortened} descMax={budget.settings.descMax} {...lists} />}
      {cutByCap === 0 ? (
        <p className="text-sm text-emerald-700">
          {shortened.length === 0
            ? "Nothing: every listed skill is shown with its whole description."
            : "The cap cut nothing: every listed skill is shown with its (shortened) description."}
        </p>
      ) : (
        <>
          <p className="mb-2 text-sm text-slate-600">
            Over the cap, descriptions go first (Learned, then Workspace, Global, Built-in; from the end of each group), then whole entries
            in the same order. Each list is in the order the cap cut them.
          </p>
          {dropped.length > 0 && <EntriesLeftOut list="dropped" title="Entries dropped" entries={dropped} {...lists} />}
          {stripped.length > 0 && <EntriesLeftOut list="stripped" title="Descriptions dropped" entries={stripped} {...lists} />}
        </>
      )}
    </Section>
  );
}

/** A GET form over the names of what was cut (the what-if kept), and the whole lists as CSV. */
function FindAndDownload({ slug, query }: { slug: string; query: ListingPageQuery }) {
  const whatIf = whatIfParams(query);
  const whatIfSearch = whatIf.length > 0 ? `?${new URLSearchParams(whatIf)}` : "";
  return (
    <div className="mb-4 flex flex-wrap items-end gap-3">
      <form role="search" aria-label="Find a cut skill" action={`/t/${slug}/listing`} className="flex flex-wrap items-end gap-2">
        {whatIf.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label className="text-sm font-medium">
          Find a skill by name
          <input
            name="q"
            type="search"
            defaultValue={query.q}
            className="mt-1 block w-56 rounded-md border border-slate-300 px-2 py-1 font-normal"
          />
        </label>
        <button className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium hover:bg-slate-50">Find</button>
        {query.q && (
          <Link prefetch={false} href={`/t/${slug}/listing${whatIfSearch}`} className="py-1 text-sm text-indigo-700 hover:underline">
            Clear the search
          </Link>
        )}
      </form>
      <a
        href={`/t/${slug}/listing/cut.csv${whatIfSearch}`}
        download
        className="py-1 text-sm text-indigo-700 hover:underline sm:ml-auto"
        data-testid="cut-download"
      >
        Download all of it (CSV)
      </a>
    </div>
  );
}

interface ListProps {
  slug: string;
  query: ListingPageQuery;
}

function ShortenedDescriptions({
  shortened,
  descMax,
  slug,
  query,
}: ListProps & { shortened: ListingBudget["shortened"]; descMax: number }) {
  const losingUseWhen = shortened.filter((entry) => entry.lostUseWhen).length;
  const page = cutPage(shortened, query.q, query.pages.cut);
  return (
    <div className="mb-4" data-testid="shortened" id="cut">
      <p className="mb-2 text-sm text-slate-600">
        {count(shortened.length)} description{shortened.length === 1 ? " is" : "s are"} longer than descMax ({descMax} characters) and shown
        shortened
        {losingUseWhen > 0 && `; ${count(losingUseWhen)} lose their "Use when…" clause, the part agents route by`}:
      </p>
      {(query.q || page.pages > 1) && <PageCount list="cut" noun="descriptions shortened" page={page} query={query} />}
      <ul className="space-y-1 text-sm">
        {page.rows.map(({ entry }) => (
          <li key={entry.name} data-shortened={entry.name} className="break-words">
            <span className="font-mono text-xs">{entry.name}</span>
            {entry.lostUseWhen && <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-900">loses &quot;Use when&quot;</span>}
            <span className="text-slate-500"> lost: </span>
            <span className="text-slate-700">…{entry.lost}</span>
          </li>
        ))}
      </ul>
      <Pager list="cut" noun="descriptions shortened" page={page} slug={slug} query={query} />
    </div>
  );
}

function EntriesLeftOut({ list, title, entries, slug, query }: ListProps & { list: CutList; title: string; entries: LeftOutEntry[] }) {
  const page = cutPage(entries, query.q, query.pages[list]);
  const noun = title.toLowerCase();
  return (
    <div className="mt-4" id={list}>
      <h3 className="mb-1 text-sm font-semibold">{title}</h3>
      <PageCount list={list} noun={noun} page={page} query={query} />
      {page.rows.length > 0 && (
        <Table
          label={`${title}, in order`}
          head={
            <>
              <th className="py-1">#</th>
              <th className="py-1">Skill</th>
              <th className="py-1">Group</th>
            </>
          }
        >
          {page.rows.map(({ entry, position }) => (
            <tr key={entry.name} className="border-t border-slate-100" data-cut={entry.name}>
              <td className="py-1 tabular-nums text-slate-500">{count(position)}</td>
              <td className="py-1 font-mono text-xs">{entry.name}</td>
              <td className="py-1">{entry.scope}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pager list={list} noun={noun} page={page} slug={slug} query={query} />
    </div>
  );
}

/** "9,606 entries dropped: showing 1–50", or with a search "1 of 9,606 entries dropped matches "skill-01234"". */
function PageCount({ list, noun, page, query }: { list: CutList; noun: string; page: CutPage<unknown>; query: ListingPageQuery }) {
  const counted = query.q
    ? `${count(page.total)} of ${count(page.entries)} ${noun} ${page.total === 1 ? "matches" : "match"} "${query.q}"`
    : `${count(page.entries)} ${noun}`;
  const showing = page.pages > 1 ? `: showing ${count(page.first)}–${count(page.first + page.rows.length - 1)}` : "";
  return (
    <p className="mb-2 text-sm text-slate-600" data-count={list}>
      {counted}
      {showing}
    </p>
  );
}

/** Previous and next pages of one list, the others' pages and the search kept; nothing when the list fits on one page. */
function Pager({ list, noun, page, slug, query }: ListProps & { list: CutList; noun: string; page: CutPage<unknown> }) {
  if (page.pages === 1) return null;
  return (
    <PageLinks
      page={page.page}
      pages={page.pages}
      href={(to) => `/t/${slug}/listing${cutListSearch(query, list, to)}#${list}`}
      label={`Pages of ${noun}`}
    >
      <span className="text-slate-600">
        Page {count(page.page)} of {count(page.pages)}
      </span>
    </PageLinks>
  );
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}
