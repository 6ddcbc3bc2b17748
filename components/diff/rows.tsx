/* Rows both views of a diff share. */

/** The last row of a diff cut short (DiffView): how much was left out, and where all of it is. */
export function MoreRows({ hidden, columns }: { hidden: number; columns: number }) {
  if (hidden <= 0) return null;
  return (
    <tr className="bg-amber-50 text-center text-amber-900">
      <td colSpan={columns} className="py-1">
        … {hidden.toLocaleString("en-US")} more rows not shown here; the API&apos;s diff route (
        <code>GET /api/v1/skills/&lt;name&gt;/diff</code>) has every line
      </td>
    </tr>
  );
}

/** A fold of unchanged lines. */
export function SkipRow({ count, columns }: { count: number; columns: number }) {
  return (
    <tr className="bg-slate-100 text-center text-slate-700">
      <td colSpan={columns} className="py-0.5">
        … {count} unchanged line{count === 1 ? "" : "s"} …
      </td>
    </tr>
  );
}
