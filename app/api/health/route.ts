import { sql } from "drizzle-orm";
import { getApp } from "@/lib/app/boot";
import { json } from "@/lib/http/respond";

/** GET /api/health — 200 with the database's state, 503 when it cannot be reached. */
export async function GET(): Promise<Response> {
  try {
    const app = await getApp();
    await app.db.execute(sql`select 1`);
    return json({ status: "ok", database: { kind: app.database.kind, state: "up" } });
  } catch {
    return json({ status: "unavailable", database: { state: "down" } }, 503);
  }
}
