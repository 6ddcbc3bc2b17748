"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import type { SkillHealthRow } from "@/lib/overview/overview";

type SortKey = "name" | "source" | "version" | "status" | "lint" | "views7d" | "views30d" | "lastViewedAt" | "successRate" | "recall";

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: "name", label: "Skill" },
  { key: "source", label: "Source" },
  { key: "version", label: "Version", numeric: true },
  { key: "status", label: "Status" },
  { key: "lint", label: "Lint" },
  { key: "views7d", label: "Views 7d", numeric: true },
  { key: "views30d", label: "Views 30d", numeric: true },
  { key: "lastViewedAt", label: "Last viewed" },
  { key: "successRate", label: "Success", numeric: true },
  { key: "recall", label: "Recall", numeric: true },
];

function sortValue(row: SkillHealthRow, key: SortKey): string | number {
  if (key === "lint") return row.lint.length;
  if (key === "lastViewedAt") return row.lastViewedAt ?? "";
  if (key === "successRate") return row.successRate ?? -1;
  if (key === "recall") return row.recall ?? -1;
  if (key === "source") return sourceLabel(row);
  return row[key];
}

export function sourceLabel(row: Pick<SkillHealthRow, "source" | "folder">): string {
  return row.source === "file" ? `file ${row.folder}` : row.source;
}

/** The overview's skill health table: sortable by any column, filterable by text and status. */
export function SkillHealthTable({ team, rows }: { team: string; rows: SkillHealthRow[] }) {
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState("all");
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: "name", descending: false });
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return rows
      .filter(
        (row) =>
          status === "all" || (status === "never" ? row.neverLoaded : status === "lint" ? row.lint.length > 0 : row.status === status),
      )
      .filter((row) => needle === "" || row.name.includes(needle) || sourceLabel(row).includes(needle))
      .sort((a, b) => {
        const x = sortValue(a, sort.key);
        const y = sortValue(b, sort.key);
        const order = x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : 1;
        return sort.descending ? -order : order;
      });
  }, [rows, query, status, sort]);
  return (
    <div className="rounded-lg border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 p-3">
        <input
          aria-label="Filter skills"
          placeholder="Filter by name or source"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className="w-64 rounded-md border border-slate-300 px-3 py-1.5 text-sm"
        />
        <select
          aria-label="Show"
          value={status}
          onChange={(event) => setStatus(event.target.value)}
          className="rounded-md border border-slate-300 px-2 py-1.5 text-sm"
        >
          <option value="all">All skills</option>
          <option value="active">In the listing</option>
          <option value="shadowed">Shadowed</option>
          <option value="draft">Drafts</option>
          <option value="never">Never loaded</option>
          <option value="lint">With lint findings</option>
        </select>
        <span className="ml-auto text-sm text-slate-500" data-testid="row-count">
          {shown.length} of {rows.length} skills
        </span>
      </div>
      <table className="w-full text-sm">
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            {COLUMNS.map((column) => (
              <th
                key={column.key}
                className={`px-3 py-2 ${column.numeric ? "text-right" : ""}`}
                aria-sort={sort.key === column.key ? (sort.descending ? "descending" : "ascending") : "none"}
              >
                <button
                  className="font-medium uppercase hover:text-slate-900"
                  onClick={() =>
                    setSort({ key: column.key, descending: sort.key === column.key ? !sort.descending : column.numeric === true })
                  }
                >
                  {column.label}
                  {sort.key === column.key ? (sort.descending ? " ↓" : " ↑") : ""}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr
              key={`${row.name}/${row.status}/${sourceLabel(row)}`}
              className="border-t border-slate-100 align-top"
              data-skill={row.name}
              data-status={row.status}
            >
              <td className="px-3 py-2">
                {row.status === "shadowed" ? (
                  <span className="font-medium text-slate-500 line-through">{row.name}</span>
                ) : (
                  <Link href={`/t/${team}/skills/${row.name}`} className="font-medium text-indigo-700 hover:underline">
                    {row.name}
                  </Link>
                )}
                {row.collision && <div className="text-xs text-amber-700">{row.collision}</div>}
              </td>
              <td className="px-3 py-2">
                <span className="font-mono text-xs">{sourceLabel(row)}</span>
                {row.provenance && <div className="text-xs text-slate-500">{row.provenance}</div>}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                v{row.version}
                {row.tier && row.tier !== "unverified" && <div className="text-xs text-teal-700">{row.tier}</div>}
              </td>
              <td className="px-3 py-2">
                <StatusBadge status={row.status} />
              </td>
              <td className="px-3 py-2">
                {row.lint.length === 0 ? (
                  <span className="text-emerald-700">clean</span>
                ) : (
                  <ul className="min-w-48 space-y-1 text-xs text-amber-800">
                    {row.lint.map((finding) => (
                      <li key={finding.rule} data-lint={finding.rule}>
                        {finding.message}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{row.views7d}</td>
              <td className="px-3 py-2 text-right tabular-nums">{row.views30d}</td>
              <td className="px-3 py-2 text-slate-600">
                {row.neverLoaded ? (
                  <span className="rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-700">never loaded</span>
                ) : row.lastViewedAt ? (
                  formatDay(row.lastViewedAt)
                ) : (
                  "—"
                )}
              </td>
              <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                {row.successRate === null ? (
                  "—"
                ) : (
                  <>
                    {Math.round(row.successRate * 100)}% <span className="text-xs text-slate-500">of {row.runs}</span>
                  </>
                )}
              </td>
              <td className="px-3 py-2 text-right tabular-nums" title="recall in the latest activation run">
                {row.recall === null ? "—" : `${Math.round(row.recall * 100)}%`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function StatusBadge({ status }: { status: string }) {
  const style =
    status === "active" ? "bg-emerald-50 text-emerald-800" : status === "draft" ? "bg-sky-50 text-sky-800" : "bg-amber-50 text-amber-800";
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${style}`}>{status}</span>;
}

function formatDay(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}
