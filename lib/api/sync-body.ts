import { AppError } from "../errors";
import { parseJsonBytes, readBytes } from "../http/body";
import type { SyncFile } from "../skills/sync";
import { readTarGz } from "../skills/tar-gz";
import { syncBodySchema } from "./schemas";

export const SYNC_MAX_BYTES = 64 * 1024 * 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A sync request's tree, from either of its two forms: JSON files or a gzip'd tar. */
export async function readSyncTree(req: Request): Promise<SyncFile[]> {
  const type = (req.headers.get("content-type") ?? "application/json").toLowerCase();
  const bytes = await readBytes(req, SYNC_MAX_BYTES);
  if (/^application\/(x-)?(gzip|tar\+gzip|x-gtar)\b/.test(type)) return readTarGz(bytes, SYNC_MAX_BYTES);
  if (!/^application\/(.+\+)?json\b/.test(type)) {
    throw new AppError("UnsupportedMediaType", `send the tree as application/json or application/gzip (got ${type})`);
  }
  const body = parseJsonBytes(bytes, syncBodySchema);
  return body.files.map((file, i) => {
    if (file.encoding !== "base64") return { path: file.path, content: Buffer.from(file.content, "utf8") };
    if (!BASE64.test(file.content)) {
      throw new AppError("InvalidField", `field "files.${i}.content": "${file.path}" is marked base64 but is not valid base64`);
    }
    return { path: file.path, content: Buffer.from(file.content, "base64") };
  });
}
