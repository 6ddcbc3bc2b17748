import Image from "next/image";
import Link from "next/link";
import { connection } from "next/server";
import { visitorOf } from "@/lib/pages/member";
import { signOut } from "@/lib/auth/next-auth";
import { NavLinks } from "@/components/nav-links";
import { TeamSwitcher } from "@/components/team-switcher";
import { VisitorProvider } from "@/components/visitor-context";
import { awaitingApprovalCount } from "@/lib/evolution/amendments";

/**
 * The header every team page sits under. It does not answer 404 for a team the person is not in:
 * each page's own membership check does (requireMember), so the not-found page shows under this
 * header, with the person's own teams to go to; sections and counts are only for a member.
 */
export default async function TeamLayout({ children, params }: { children: React.ReactNode; params: Promise<{ team: string }> }) {
  await connection();
  const { team: slug } = await params;
  const { app, user, teams, membership } = await visitorOf(slug);
  const awaiting = membership ? await awaitingApprovalCount(app, membership.team) : 0;
  const links = teams.map((m) => ({ slug: m.team.slug, name: m.team.name }));
  return (
    <div className="min-h-screen">
      <header className="bg-slate-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 md:px-6">
          <Link href={membership ? `/t/${slug}` : "/"} className="flex items-center gap-2 font-semibold">
            <Image src="/favicon.svg" alt="" width={24} height={24} loading="eager" className="h-6 w-6" />
            Skillgate
          </Link>
          <TeamSwitcher current={slug} teams={links} />
          {membership && <NavLinks team={slug} counts={{ "/history": awaiting }} />}
          <div className="ml-auto flex items-center gap-3 text-sm text-slate-300">
            {membership ? (
              <span>
                <span className="hidden sm:inline">{user.email} · </span>
                {membership.role}
              </span>
            ) : (
              <span className="hidden sm:inline">{user.email}</span>
            )}
            <form
              action={async () => {
                "use server";
                await signOut({ redirectTo: "/signin" });
              }}
            >
              <button className="rounded-md border border-slate-600 px-2 py-1 hover:bg-slate-700">Sign out</button>
            </form>
          </div>
        </div>
      </header>
      <VisitorProvider value={{ team: slug, member: membership !== null, teams: links }}>
        <main className="mx-auto max-w-7xl px-4 py-6 md:px-6 md:py-8">{children}</main>
      </VisitorProvider>
    </div>
  );
}
