import { getApp } from "@/lib/current-app";
import { json } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/health — 200 with the database's state, 503 when it cannot be reached (within the fast query's timeout). */
export async function GET(): Promise<Response> {
  try {
    const app = await getApp();
    await app.database.query("select 1", []);
    return json({ status: "ok", database: { kind: app.database.kind, state: "up" } });
  } catch {
    return json({ status: "unavailable", database: { state: "down" } }, 503, { "retry-after": "5" });
  }
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
