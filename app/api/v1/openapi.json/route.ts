import { openApiDocument } from "@/lib/api/openapi";
import { json } from "@/lib/http/respond";

/** GET /api/v1/openapi.json — every route, its scope and its request body. */
export async function GET(): Promise<Response> {
  return json(openApiDocument());
}
