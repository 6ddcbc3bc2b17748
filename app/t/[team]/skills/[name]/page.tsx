import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/auth/member";
import { isAppError } from "@/lib/errors";
import { isSkillName } from "@/lib/skills/name";
import { skillPage } from "@/lib/skills/skill-page";

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }): Promise<Metadata> {
  return { title: (await params).name };
}

export default async function SkillPageView({ params }: { params: Promise<{ team: string; name: string }> }) {
  const { team: slug, name } = await params;
  const { app, team } = await requireMember(slug, `/t/${slug}/skills/${name}`);
  if (!isSkillName(name)) notFound();
  const page = await skillPage(app.db, app.catalogs, team, name).catch((error: unknown) => {
    if (isAppError(error) && error.status === 404) notFound();
    throw error;
  });
  const { content } = page;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{content.name}</h1>
        <p className="mt-1 text-slate-600">{content.skill.description}</p>
        <p className="mt-2 font-mono text-xs text-slate-500" data-testid="annotation">
          {page.annotation}
        </p>
      </div>
      <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Lint">
        <h2 className="mb-2 font-semibold">Description lint</h2>
        {page.lint.length === 0 ? (
          <p className="text-sm text-emerald-700">[lint] clean</p>
        ) : (
          <ul className="space-y-1 font-mono text-xs text-amber-800">
            {page.lint.map((finding) => (
              <li key={finding.rule}>
                [lint] {finding.rule}: {finding.message}
              </li>
            ))}
          </ul>
        )}
      </section>
      {page.files.length > 0 && (
        <section className="rounded-lg border border-slate-200 bg-white p-4" aria-label="Supporting files">
          <h2 className="mb-2 font-semibold">Supporting files</h2>
          <ul className="font-mono text-xs">
            {page.files.map((file) => (
              <li key={file.path}>
                {file.path} <span className="text-slate-500">({file.size.toLocaleString("en-US")} bytes)</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-2 font-semibold">SKILL.md (raw)</h2>
        <pre className="overflow-x-auto whitespace-pre-wrap rounded-md bg-slate-50 p-4 font-mono text-xs" data-testid="raw-skill">
          {content.frontmatter + content.body}
        </pre>
      </section>
    </div>
  );
}
