import type { Metadata } from "next";
import { listingQuery } from "@/lib/contracts/listing";
import { requireMember } from "@/lib/pages/member";
import { listingBudget } from "@/lib/listing/listing";
import { BudgetBar } from "@/components/budget-bar";
import { ListingHistoryChart } from "@/components/listing-history-chart";
import { Stat } from "@/components/stat";

export const metadata: Metadata = { title: "Listing budget" };

export default async function ListingPage({
  params,
  searchParams,
}: {
  params: Promise<{ team: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { team: slug } = await params;
  const { app, team } = await requireMember(slug, `/t/${slug}/listing`);
  const raw = await searchParams;
  const query = listingQuery.safeParse({ cap: single(raw.cap), descMax: single(raw.descMax) });
  const whatIf = query.success ? query.data : {};
  const budget = await listingBudget(app.db, app.catalogs, team, whatIf);
  const { listing, settings } = budget;
  const isWhatIf = settings.cap !== team.listingCap || settings.descMax !== team.descMax;
  const f = listing.figures;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Listing budget</h1>
        <p className="text-sm text-slate-500">
          The exact text agents put in their system prompt, and how its {f.cap.toLocaleString("en-US")}-character cap is spent.
        </p>
      </div>

      <form className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="What-if">
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
        {!query.success && (
          <p role="alert" className="w-full text-sm text-red-700">
            {query.error.issues[0]?.path.join(".")}: {query.error.issues[0]?.message}. Showing the team&apos;s settings instead.
          </p>
        )}
        {isWhatIf && (
          <p className="w-full text-sm text-amber-800">
            What-if: nothing is saved; agents still get the listing at the team&apos;s settings.
          </p>
        )}
      </form>

      <section className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="Figures">
        <Stat
          label="Characters"
          value={`${f.chars.toLocaleString("en-US")} / ${f.cap.toLocaleString("en-US")}`}
          tone={listing.truncated ? "warn" : "good"}
          note={listing.truncated ? "over the cap: cut to fit" : `${(f.cap - f.chars).toLocaleString("en-US")} to spare`}
        />
        <Stat label="Skills shown" value={`${f.shown} of ${f.total}`} />
        <Stat label="Descriptions dropped" value={String(f.droppedDescriptions)} tone={f.droppedDescriptions > 0 ? "warn" : "plain"} />
        <Stat label="Entries dropped" value={String(f.droppedEntries)} tone={f.droppedEntries > 0 ? "warn" : "plain"} />
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">The cap by group</h2>
        <BudgetBar segments={budget.segments} cap={f.cap} />
        <ul className="mt-2 flex flex-wrap gap-4 text-sm text-slate-600" data-testid="segments">
          {budget.segments.map((segment) => (
            <li key={segment.key} data-segment={segment.key}>
              {segment.label}: <span className="tabular-nums">{segment.chars.toLocaleString("en-US")}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Cut from the listing">
        <h2 className="mb-2 font-semibold">What was cut, and why</h2>
        {budget.shortened.length > 0 && (
          <div className="mb-4" data-testid="shortened">
            <p className="mb-2 text-sm text-slate-600">
              {budget.shortened.length} description{budget.shortened.length === 1 ? " is" : "s are"} longer than descMax ({settings.descMax}{" "}
              characters) and shown shortened
              {budget.shortened.some((entry) => entry.lostUseWhen) &&
                `; ${budget.shortened.filter((entry) => entry.lostUseWhen).length} lose their "Use when…" clause, the part agents route by`}
              :
            </p>
            <ul className="space-y-1 text-sm">
              {budget.shortened.map((entry) => (
                <li key={entry.name} data-shortened={entry.name} className="break-words">
                  <span className="font-mono text-xs">{entry.name}</span>
                  {entry.lostUseWhen && (
                    <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-900">loses &quot;Use when&quot;</span>
                  )}
                  <span className="text-slate-500"> lost: </span>
                  <span className="text-slate-700">…{entry.lost}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {budget.cut.length === 0 ? (
          <p className="text-sm text-emerald-700">
            {budget.shortened.length === 0
              ? "Nothing: every listed skill is shown with its whole description."
              : "The cap cut nothing: every listed skill is shown with its (shortened) description."}
          </p>
        ) : (
          <>
            <p className="mb-2 text-sm text-slate-600">
              Over the cap, descriptions go first (Learned, then Workspace, Global, Built-in; from the end of each group), then whole
              entries in the same order. In the order they were cut:
            </p>
            <table className="w-full text-sm">
              <thead className="text-left text-xs uppercase text-slate-500">
                <tr>
                  <th className="py-1">#</th>
                  <th className="py-1">Skill</th>
                  <th className="py-1">Group</th>
                  <th className="py-1">What happened</th>
                </tr>
              </thead>
              <tbody>
                {budget.cut.map((entry, i) => (
                  <tr key={entry.name} className="border-t border-slate-100" data-cut={entry.name}>
                    <td className="py-1 tabular-nums text-slate-500">{i + 1}</td>
                    <td className="py-1 font-mono text-xs">{entry.name}</td>
                    <td className="py-1">{entry.scope}</td>
                    <td className="py-1">{entry.state === "stripped" ? "description dropped" : "entry dropped"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">The listing as agents get it</h2>
        <pre
          data-testid="listing-text"
          tabIndex={0}
          aria-label="The listing text"
          className="overflow-x-auto whitespace-pre rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100"
        >
          {listing.text}
        </pre>
      </section>

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">Size over time</h2>
        {budget.history.length === 0 ? (
          <p className="text-sm text-slate-500">No catalog changes recorded yet.</p>
        ) : (
          <ListingHistoryChart points={budget.history} />
        )}
      </section>
    </div>
  );
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value === "" ? undefined : value;
}
