import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { extract, pack } from "tar-stream";
import { AppError } from "../errors";
import type { SyncFile } from "./sync";

/** The tree of a sync sent as an `application/gzip` tar. Decompression is bounded like the JSON form. */
export async function readTarGz(bytes: Uint8Array, maxBytes: number): Promise<SyncFile[]> {
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
  const files: SyncFile[] = [];
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on("entry", (header, stream, next) => {
      const path = header.name.replace(/^\.\//, "");
      if (header.type === "directory" || path === "") {
        stream.resume();
        stream.on("end", next);
        return;
      }
      if (header.type !== "file") {
        stream.resume();
        reject(new AppError("InvalidPath", `invalid path: "${path}" is a ${header.type}; the tree may hold only files and folders`));
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on("end", () => {
        files.push({ path, content: Buffer.concat(chunks) });
        next();
      });
    });
    reader.on("finish", resolve);
    reader.on("error", () => reject(new AppError("BadRequest", "the gzip body does not hold a valid tar archive")));
  });
  Readable.from([tar]).pipe(reader);
  await done;
  return files;
}

/** A .tar.gz of these files; a fixed time and mode, so the same files always give the same bytes. */
export async function packTarGz(files: SyncFile[]): Promise<Buffer> {
  const tar = pack();
  for (const file of files) tar.entry({ name: file.path, mtime: new Date(0), mode: 0o644 }, Buffer.from(file.content));
  tar.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of tar) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}
