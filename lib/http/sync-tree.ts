import { AppError } from "../errors";
import { SYNC_MAX_BYTES, syncBody } from "../contracts/sync";
import { readTarGz } from "../skills/tar-gz";
import type { Tree } from "../skills/tree";
import { parseJsonBytes, readBytes } from "./body";

/** A sync request's tree, from either of its two forms: JSON files or a gzip'd tar. */
export async function readSyncTree(req: Request): Promise<Tree> {
  const type = (req.headers.get("content-type") ?? "application/json").toLowerCase();
  const bytes = await readBytes(req, SYNC_MAX_BYTES);
  if (/^application\/(x-)?(gzip|tar\+gzip|x-gtar)\b/.test(type)) return readTarGz(bytes, SYNC_MAX_BYTES);
  if (!/^application\/(.+\+)?json\b/.test(type)) {
    throw new AppError("UnsupportedMediaType", `send the tree as application/json or application/gzip (got ${type})`);
  }
  const body = parseJsonBytes(bytes, syncBody);
  const files = body.files.map((file, i) => {
    const executable = file.executable ?? false;
    if (file.encoding !== "base64") return { path: file.path, content: Buffer.from(file.content, "utf8"), executable };
    const content = decodeBase64(file.content);
    if (!content) throw new AppError("InvalidField", `field "files.${i}.content": "${file.path}" is marked base64 but is not valid base64`);
    return { path: file.path, content, executable };
  });
  return { files, others: [] };
}

/**
 * Strict base64: Node's decoder skips characters it does not know, so the bytes are encoded
 * again and must give back the text. Linear in the size; a regex over megabytes overflows the stack.
 */
function decodeBase64(text: string): Buffer | null {
  const bytes = Buffer.from(text, "base64");
  return bytes.toString("base64") === text ? bytes : null;
}
