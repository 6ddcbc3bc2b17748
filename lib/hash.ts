import { hash } from "node:crypto";

/**
 * SHA-256 as hex, in one call: no Hash object per call, which on the hot path (every API key is
 * hashed on every request) cost more than the digest itself (docs/hot-path.md). Node ≥ 20.12.
 */
export function sha256Hex(data: string | Uint8Array): string {
  return hash("sha256", data, "hex");
}
