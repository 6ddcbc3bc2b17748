import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { extract, pack } from "tar-stream";
import { AppError } from "../errors";
import type { Tree } from "./tree";

/**
 * The tree of a sync sent as an `application/gzip` tar. Decompression is bounded like the JSON
 * form. Links, devices and the like are kept as entries without content, for the filter to report.
 */
export async function readTarGz(bytes: Uint8Array, maxBytes: number): Promise<Tree> {
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_BUFFER_TOO_LARGE") {
      throw new AppError("PayloadTooLarge", `the unpacked tree is larger than ${maxBytes / 1024 / 1024} MiB`);
    }
    throw new AppError("BadRequest", "request body is not a gzip file; send a .tar.gz of the skill folders");
  }
  const tree: Tree = { files: [], others: [] };
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on("entry", (header, stream, next) => {
      // `tar -C dir .` writes `./a/b`; a folder entry ends with `/`.
      const path = header.name.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
      const isFile = !header.type || header.type === "file" || header.type === "contiguous-file";
      if (!isFile) {
        if (path !== "" && path !== ".") tree.others.push({ path, kind: header.type === "directory" ? "folder" : "link" });
        stream.resume();
        stream.on("end", next);
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on("end", () => {
        tree.files.push({ path, content: Buffer.concat(chunks), executable: ((header.mode ?? 0o644) & 0o111) !== 0 });
        next();
      });
    });
    reader.on("finish", resolve);
    reader.on("error", () => reject(new AppError("BadRequest", "the gzip body does not hold a valid tar archive")));
  });
  Readable.from([tar]).pipe(reader);
  await done;
  return tree;
}

/** A .tar.gz of a tree; a fixed time and modes, so the same tree always gives the same bytes. */
export async function packTarGz(tree: Tree): Promise<Buffer> {
  const tar = pack();
  const at = new Date(0);
  for (const file of tree.files) {
    tar.entry({ name: file.path, mtime: at, mode: file.executable ? 0o755 : 0o644 }, Buffer.from(file.content));
  }
  for (const other of tree.others) {
    if (other.kind === "folder") tar.entry({ name: `${other.path}/`, type: "directory", mtime: at, mode: 0o755 });
    else tar.entry({ name: other.path, type: "symlink", linkname: other.target ?? "", mtime: at, mode: 0o777 });
  }
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}
