import { openApiDocument } from "@/lib/contracts/openapi";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";

/** GET /api/v1/openapi.json — every operation, generated from the contracts. */
export async function GET(req: Request): Promise<Response> {
  return json(openApiDocument(new URL(req.url).origin));
}

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });
