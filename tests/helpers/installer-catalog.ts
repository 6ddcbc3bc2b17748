import { createHash } from "node:crypto";

/**
 * A catalog as teams keep them in real repositories, for what an installer does to a server: each
 * skill a `SKILL.md` with scripts, references and assets beside it, some binary, so one install
 * asks for some two thousand files at once (issue 38: 127 skills, 2,253 files).
 */
export interface CatalogFile {
  path: string;
  content: Buffer;
}

/** Files per skill: SKILL.md and 16 more, or fewer for every fifth skill, as real trees vary. */
function filesOf(index: number): number {
  return index % 5 === 4 ? 9 : 17;
}

/** Deterministic bytes of `size`, from a name: binary assets that compress badly, as real ones do. */
function bytesOf(name: string, size: number): Buffer {
  const chunks: Buffer[] = [];
  for (let i = 0; chunks.length * 32 < size; i++) chunks.push(createHash("sha256").update(`${name}:${i}`).digest());
  return Buffer.concat(chunks).subarray(0, size);
}

export function installerCatalog(skills: number, prefix = "inst"): CatalogFile[] {
  const files: CatalogFile[] = [];
  for (let i = 0; i < skills; i++) {
    const name = `${prefix}-${String(i).padStart(4, "0")}`;
    const skillMd = `---\nname: ${name}\ndescription: Runs procedure ${i} of the platform team. Use when task ${i} comes up.\n---\n# ${name}\n\nSee references/guide-1.md and run scripts/step-1.sh.\n`;
    files.push({ path: `${name}/SKILL.md`, content: Buffer.from(skillMd) });
    const extra = filesOf(i) - 1;
    for (let f = 0; f < extra; f++) {
      const kind = f % 4;
      if (kind === 0)
        files.push({ path: `${name}/scripts/step-${f}.sh`, content: Buffer.from(`#!/bin/sh\necho "step ${f} of ${name}"\n`) });
      else if (kind === 1)
        files.push({
          path: `${name}/references/guide-${f}.md`,
          content: Buffer.from(`# Guide ${f}\n\n${"A line of guidance.\n".repeat(20 + f)}`),
        });
      else if (kind === 2) files.push({ path: `${name}/assets/image-${f}.png`, content: bytesOf(`${name}/${f}`, 2_000 + 97 * f) });
      else files.push({ path: `${name}/references/nested/deep/notes-${f}.txt`, content: Buffer.from(`notes ${f} of ${name}\n`) });
    }
  }
  return files;
}

/** The tree as `POST /api/v1/skills/sync` takes it in JSON. */
export function syncBody(files: CatalogFile[]): string {
  return JSON.stringify({
    files: files.map((file) => ({ path: file.path, content: file.content.toString("base64"), encoding: "base64" })),
  });
}
