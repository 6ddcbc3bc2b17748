import type { ReactNode } from "react";
import { Table } from "@/components/ui/table";
import { When } from "@/components/ui/when";

/** The settings page's tables of things a lead hands out and revokes (API keys, install links, invitations). */
export function CredentialTable({
  label,
  region,
  columns,
  children,
}: {
  /** The table's name. */
  label: string;
  /** The name of the box it scrolls in, distinct from the section's. */
  region: string;
  columns: string[];
  children: ReactNode;
}) {
  return (
    <Table
      label={region}
      tableLabel={label}
      className="mt-4"
      head={
        <>
          {columns.map((column) => (
            <th key={column} className="py-1 pr-3">
              {column}
            </th>
          ))}
          <th className="py-1">
            <span className="sr-only">Revoke</span>
          </th>
        </>
      }
    >
      {children}
    </Table>
  );
}

/** The last cell of a row: when it was revoked, or the button that revokes it. */
export function RevokeCell({ revokedAt, children }: { revokedAt: Date | null; children: ReactNode }) {
  return (
    <td className="py-1.5 text-right">
      {revokedAt ? (
        <span className="text-xs text-slate-500">
          revoked <When at={revokedAt} />
        </span>
      ) : (
        children
      )}
    </td>
  );
}
