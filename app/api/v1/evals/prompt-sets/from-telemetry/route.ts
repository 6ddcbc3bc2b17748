import { promptSetFromTelemetry as fromTelemetryOperation } from "@/lib/contracts/activation";
import { promptSetFromTelemetry } from "@/lib/activation/from-telemetry";
import { savePromptSet } from "@/lib/activation/prompt-sets";
import { otherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** POST /api/v1/evals/prompt-sets/from-telemetry — a prompt set of the prompts people really wrote (docs/telemetry.md#prompt-sets-from-production). */
export const POST = route(fromTelemetryOperation, async ({ body }, { app, auth }) => {
  const set = await promptSetFromTelemetry(app.db, await app.catalogs.catalog(auth.team), auth.team.id, body);
  return json(await savePromptSet(app.db, auth.team.id, set), 201);
});

export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ POST });
