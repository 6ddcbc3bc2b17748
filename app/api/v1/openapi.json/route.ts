import { openApiDocument } from "@/lib/api/openapi";
import { json } from "@/lib/http/respond";
import { otherMethods } from "@/lib/http/methods";

/** GET /api/v1/openapi.json — every route, its scope and its request body. */
export async function GET(): Promise<Response> {
  return json(openApiDocument());
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
