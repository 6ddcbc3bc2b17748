import { json } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/live — answers without touching the database or the app: is this process serving? */
export async function GET(): Promise<Response> {
  return json({ status: "live" });
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
