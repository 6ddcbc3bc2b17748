import { gunzipSync } from "node:zlib";
import { extract } from "tar-stream";

/** The files of a .tar.gz, path → bytes. */
export async function readTarGz(archive: Uint8Array): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on("entry", (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on("end", () => {
        files.set(header.name, Buffer.concat(chunks));
        next();
      });
    });
    reader.on("finish", resolve);
    reader.on("error", reject);
  });
  reader.end(gunzipSync(archive));
  await done;
  return files;
}
