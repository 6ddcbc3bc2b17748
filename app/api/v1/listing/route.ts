import { FULL_CATALOG, getListing } from "@/lib/contracts/listing";
import { listingHeaders, listingJson } from "@/lib/listing/listing";
import { serveInFront } from "@/lib/http/front-routes";
import { otherMethods } from "@/lib/http/methods";
import { notModified } from "@/lib/http/params";
import { json, text } from "@/lib/http/respond";
import { route } from "@/lib/http/route";

/** GET /api/v1/listing — the skills listing for the system prompt (docs/skills-and-listing.md#the-listing); `?cap=&descMax=` render a what-if, `?label=` the labelled versions. */
export const GET = route(getListing, async ({ query }, { req, app, auth: { team } }) => {
  const settings =
    query.full === "true"
      ? { ...FULL_CATALOG, loadHint: team.loadHint }
      : { cap: query.cap ?? team.listingCap, descMax: query.descMax ?? team.descMax, loadHint: team.loadHint };
  const listing = await app.catalogs.listing({ ...team, label: query.label ?? null }, settings);
  const headers = listingHeaders(listing);
  if (notModified(req, listing.etag)) return new Response(null, { status: 304, headers });
  if (query.format === "json") return json(listingJson(listing, settings), 200, headers);
  return text(listing.bytes, 200, headers);
});

export const { POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethods({ GET });

serveInFront("listing", GET);
