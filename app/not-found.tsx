import Link from "next/link";

/** Any path nothing answers outside a team's pages (those have their own, with the team's navigation). */
export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-md space-y-3 rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Not found</h1>
        <p className="text-sm text-slate-600">Nothing is at this address.</p>
        <Link href="/" className="inline-block text-sm font-medium text-indigo-700 underline">
          Your teams
        </Link>
      </div>
    </main>
  );
}
