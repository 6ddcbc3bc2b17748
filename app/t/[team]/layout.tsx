import Image from "next/image";
import Link from "next/link";
import { connection } from "next/server";
import { requireMember } from "@/lib/pages/member";
import { signOut } from "@/lib/auth/next-auth";
import { NavLinks } from "@/components/nav-links";
import { TeamSwitcher } from "@/components/team-switcher";
import { awaitingApprovalCount } from "@/lib/evolution/amendments";

export default async function TeamLayout({ children, params }: { children: React.ReactNode; params: Promise<{ team: string }> }) {
  await connection();
  const { team: slug } = await params;
  const member = await requireMember(slug);
  const awaiting = await awaitingApprovalCount(member.app.db, member.team.id);
  return (
    <div className="min-h-screen">
      <header className="bg-slate-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 md:px-6">
          <Link href={`/t/${slug}`} className="flex items-center gap-2 font-semibold">
            <Image src="/favicon.svg" alt="" width={24} height={24} loading="eager" className="h-6 w-6" />
            Skillgate
          </Link>
          <TeamSwitcher current={slug} teams={member.teams.map((m) => ({ slug: m.team.slug, name: m.team.name }))} />
          <NavLinks team={slug} counts={{ "/history": awaiting }} />
          <div className="ml-auto flex items-center gap-3 text-sm text-slate-300">
            <span>
              <span className="hidden sm:inline">{member.user.email} · </span>
              {member.role}
            </span>
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
      <main className="mx-auto max-w-7xl px-4 py-6 md:px-6 md:py-8">{children}</main>
    </div>
  );
}
