import type { ZodError } from "zod";
import type { ListingBudget } from "@/lib/listing/listing";
import type { Team } from "@/lib/teams/teams";
import { CARD } from "@/components/ui/card";
import { Section } from "@/components/ui/section";
import { Stat } from "@/components/ui/stat";
import { Table } from "@/components/ui/table";

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
      <Stat label="Skills shown" value={`${f.shown} of ${f.total}`} />
      <Stat label="Descriptions dropped" value={String(f.droppedDescriptions)} tone={f.droppedDescriptions > 0 ? "warn" : "plain"} />
      <Stat label="Entries dropped" value={String(f.droppedEntries)} tone={f.droppedEntries > 0 ? "warn" : "plain"} />
    </section>
  );
}

/** Descriptions descMax shortened, and what the cap cut, in the order it cut them. */
export function WhatWasCut({ budget }: { budget: ListingBudget }) {
  const { shortened, leftOut } = budget;
  return (
    <Section aria-label="Cut from the listing" title="What was cut, and why">
      {shortened.length > 0 && <ShortenedDescriptions shortened={shortened} descMax={budget.settings.descMax} />}
      {leftOut.length === 0 ? (
        <p className="text-sm text-emerald-700">
          {shortened.length === 0
            ? "Nothing: every listed skill is shown with its whole description."
            : "The cap cut nothing: every listed skill is shown with its (shortened) description."}
        </p>
      ) : (
        <EntriesLeftOut entries={leftOut} />
      )}
    </Section>
  );
}

function ShortenedDescriptions({ shortened, descMax }: { shortened: ListingBudget["shortened"]; descMax: number }) {
  const losingUseWhen = shortened.filter((entry) => entry.lostUseWhen).length;
  return (
    <div className="mb-4" data-testid="shortened">
      <p className="mb-2 text-sm text-slate-600">
        {shortened.length} description{shortened.length === 1 ? " is" : "s are"} longer than descMax ({descMax} characters) and shown
        shortened
        {losingUseWhen > 0 && `; ${losingUseWhen} lose their "Use when…" clause, the part agents route by`}:
      </p>
      <ul className="space-y-1 text-sm">
        {shortened.map((entry) => (
          <li key={entry.name} data-shortened={entry.name} className="break-words">
            <span className="font-mono text-xs">{entry.name}</span>
            {entry.lostUseWhen && <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-900">loses &quot;Use when&quot;</span>}
            <span className="text-slate-500"> lost: </span>
            <span className="text-slate-700">…{entry.lost}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function EntriesLeftOut({ entries }: { entries: ListingBudget["leftOut"] }) {
  return (
    <>
      <p className="mb-2 text-sm text-slate-600">
        Over the cap, descriptions go first (Learned, then Workspace, Global, Built-in; from the end of each group), then whole entries in
        the same order. In the order they were cut:
      </p>
      <Table
        label="Entries cut, in order"
        head={
          <>
            <th className="py-1">#</th>
            <th className="py-1">Skill</th>
            <th className="py-1">Group</th>
            <th className="py-1">What happened</th>
          </>
        }
      >
        {entries.map((entry, i) => (
          <tr key={entry.name} className="border-t border-slate-100" data-cut={entry.name}>
            <td className="py-1 tabular-nums text-slate-500">{i + 1}</td>
            <td className="py-1 font-mono text-xs">{entry.name}</td>
            <td className="py-1">{entry.scope}</td>
            <td className="py-1">{entry.state === "stripped" ? "description dropped" : "entry dropped"}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
