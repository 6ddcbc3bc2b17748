import { z } from "zod";
import { parseObservationsBody, recordObservations } from "@/lib/evolution/observations";
import { readJson } from "@/lib/http/body";
import { json } from "@/lib/http/respond";
import { agentRoute } from "@/lib/http/route";
import { otherMethods } from "@/lib/http/methods";

/** POST /api/v1/observations — one run of a skill, or `{"observations": [...]}` (up to 500), all or nothing. */
export const POST = agentRoute("write", async ({ req, app, auth, sessionId }) => {
  const inputs = parseObservationsBody(await readJson(req, z.unknown(), 8 * 1024 * 1024));
  const ids = await recordObservations(app.db, app.catalogs, auth.team, inputs, { keyId: auth.keyId, sessionId });
  return json({ ids }, 201);
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
