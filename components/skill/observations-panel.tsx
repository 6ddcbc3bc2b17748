import type { ObservationFilter } from "@/lib/evolution/observations";
import { Table } from "@/components/ui/table";
import { When } from "@/components/ui/when";

interface ObservationRow {
  id: number;
  version: number;
  task: string;
  category: string;
  outcome: string;
  errorType: string | null;
  feedback: string | null;
  /** `telemetry`: a prompt whose tools failed while the skill was loaded, from the agents' own telemetry. */
  source: "api" | "telemetry";
  createdAt: Date;
}

const OUTCOME_STYLE: Record<string, string> = {
  success: "bg-emerald-100 text-emerald-900",
  failure: "bg-red-100 text-red-900",
  partial: "bg-amber-100 text-amber-900",
};

/**
 * The skill's observations, newest first: runs someone recorded and, beside them, prompts whose
 * tools failed while it was loaded (from production telemetry); filters by outcome, category,
 * version and where they came from.
 */
export function ObservationsPanel({ rows, filter }: { rows: ObservationRow[]; filter: ObservationFilter }) {
  return (
    <div className="space-y-3">
      <ObservationFilters rows={rows} filter={filter} />
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">
          No observations{filter.outcome || filter.category || filter.version || filter.source ? " that match" : ""}. Agents record runs
          with POST /api/v1/observations; failures in production come from the agents&apos; telemetry.
        </p>
      ) : (
        <Table
          label="Recorded runs"
          tableLabel="Observations"
          testId="observations"
          head={
            <>
              <th className="py-1">When</th>
              <th className="py-1">Version</th>
              <th className="py-1">Outcome</th>
              <th className="py-1">From</th>
              <th className="py-1">Category</th>
              <th className="py-1">Task</th>
              <th className="py-1">Error / feedback</th>
            </>
          }
        >
          {rows.map((o) => (
            <tr key={o.id} className="border-t border-slate-100 align-top" data-observation={o.id} data-observation-source={o.source}>
              <td className="py-1.5 text-slate-600">
                <When at={o.createdAt} />
              </td>
              <td className="py-1.5">v{o.version}</td>
              <td className="py-1.5">
                <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${OUTCOME_STYLE[o.outcome] ?? ""}`}>{o.outcome}</span>
              </td>
              <td className="py-1.5">
                {o.source === "telemetry" ? (
                  <span
                    className="rounded bg-violet-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-violet-800"
                    data-source="telemetry"
                  >
                    production telemetry
                  </span>
                ) : (
                  <span className="text-xs text-slate-600" data-source="api">
                    recorded
                  </span>
                )}
              </td>
              <td className="py-1.5">{o.category}</td>
              <td className="max-w-md whitespace-pre-wrap py-1.5">{o.task}</td>
              <td className="max-w-xs whitespace-pre-wrap py-1.5 text-slate-600">
                {[o.errorType, o.feedback].filter(Boolean).join(" — ")}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

/** A GET form, so the filter is in the page's address; with the share of the runs shown that succeeded. */
function ObservationFilters({ rows, filter }: { rows: ObservationRow[]; filter: ObservationFilter }) {
  const successes = rows.filter((r) => r.outcome === "success").length;
  return (
    <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter observations">
      <label className="text-sm">
        Outcome
        <select
          name="outcome"
          defaultValue={filter.outcome ?? ""}
          className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm"
        >
          <option value="">any</option>
          <option value="success">success</option>
          <option value="failure">failure</option>
          <option value="partial">partial</option>
        </select>
      </label>
      <label className="text-sm">
        From
        <select
          name="source"
          defaultValue={filter.source ?? ""}
          className="mt-1 block rounded-md border border-slate-300 px-2 py-1 text-sm"
        >
          <option value="">anywhere</option>
          <option value="api">recorded</option>
          <option value="telemetry">production telemetry</option>
        </select>
      </label>
      <label className="text-sm">
        Category
        <input
          name="category"
          defaultValue={filter.category ?? ""}
          className="mt-1 block w-36 rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <label className="text-sm">
        Version
        <input
          name="version"
          type="number"
          min={1}
          defaultValue={filter.version ?? ""}
          className="mt-1 block w-20 rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
      </label>
      <button className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100">Filter</button>
      {rows.length > 0 && (
        <span className="ml-auto text-sm text-slate-600" data-testid="success-rate">
          {successes} of {rows.length} shown succeeded ({Math.round((successes / rows.length) * 100)}%)
        </span>
      )}
    </form>
  );
}
