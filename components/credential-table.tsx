import type { ReactNode } from "react";

/** The settings page's tables of things a lead hands out and revokes (API keys, install links). */
export function CredentialTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="mt-4 overflow-x-auto">
      {/* Focusable, so it scrolls from the keyboard on a phone even when every row is revoked (nothing else to focus). */}
      <table className="w-full text-sm" tabIndex={0} aria-label={label}>
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            {columns.map((column) => (
              <th key={column} className="py-1 pr-3">
                {column}
              </th>
            ))}
            <th className="py-1">
              <span className="sr-only">Revoke</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The last cell of a row: when it was revoked, or the button that revokes it. */
export function RevokeCell({ revokedAt, children }: { revokedAt: Date | null; children: ReactNode }) {
  return (
    <td className="py-1.5 text-right">
      {revokedAt ? <span className="text-xs text-slate-500">revoked {revokedAt.toISOString().slice(0, 10)}</span> : children}
    </td>
  );
}
