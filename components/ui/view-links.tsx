import Link from "next/link";

/**
 * Links between views of one thing on a page (a body rendered or raw, a diff split or unified), the
 * one shown marked current. Links, not a client toggle: each view is a URL, and works without script.
 * They do not scroll: the page stays where the reader is, and what is open on it (an edit) stays open.
 */
export function ViewLinks<View extends string>({
  label,
  current,
  links,
}: {
  /** The links' name for screen readers: distinct among the page's other such links. */
  label: string;
  current: View;
  links: { view: View; text: string; href: string }[];
}) {
  return (
    <nav className="mb-3 flex gap-1" aria-label={label}>
      {links.map(({ view, text, href }) => (
        <Link
          key={view}
          href={href}
          scroll={false}
          aria-current={view === current ? "page" : undefined}
          className={`rounded-md px-3 py-1 text-sm ${view === current ? "bg-slate-900 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200"}`}
        >
          {text}
        </Link>
      ))}
    </nav>
  );
}
