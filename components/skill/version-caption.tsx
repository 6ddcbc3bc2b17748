import Link from "next/link";
import type { VersionInfo } from "@/lib/learned/history";
import { authorName } from "@/lib/learned/actor";
import { When } from "@/components/ui/when";

export function authorLabel(version: Pick<VersionInfo, "author">): string {
  const { author } = version;
  if (author.kind === "sync") return "workspace sync";
  if (author.kind === "deployment") return "shipped with Skillgate";
  return authorName(author);
}

/** Who made a version, when and why, and the evaluation behind it: said beside the diff it is about. */
export function VersionCaption({ slug, version }: { slug: string; version: VersionInfo }) {
  return (
    <p className="mb-2 text-sm text-slate-700" data-testid="diff-caption">
      <span className="font-medium">v{version.version}</span>
      {version.createdAt && (
        <>
          {" "}
          · <When at={version.createdAt} />
        </>
      )}{" "}
      · by {authorLabel(version)}
      {version.revertOf !== null && <> · a rollback to v{version.revertOf}</>}
      {version.reason && <> · “{version.reason}”</>}
      {version.amendmentId !== null && (
        <>
          {" "}
          ·{" "}
          <Link className="text-indigo-700 underline" href={`/t/${slug}/history/amendments/${version.amendmentId}`}>
            amendment #{version.amendmentId}
          </Link>
        </>
      )}
    </p>
  );
}
