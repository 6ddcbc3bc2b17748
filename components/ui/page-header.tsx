import Link from "next/link";
import type { ReactNode } from "react";

/** A page's title (its one h1), with the page it belongs under, a line on what it shows, and any other lines below. */
export function PageHeader({
  title,
  back,
  description,
  children,
}: {
  title: ReactNode;
  back?: { href: string; label: string };
  description?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div>
      {back && (
        <Link href={back.href} className="text-sm text-indigo-700 hover:underline">
          ← {back.label}
        </Link>
      )}
      <h1 className={`${back ? "mt-1" : ""} text-2xl font-semibold`}>{title}</h1>
      {description && <p className="text-sm text-slate-500">{description}</p>}
      {children}
    </div>
  );
}
