import type { NextRequest } from "next/server";
import { cutCsv } from "@/lib/listing/cut-csv";
import { listingBudget } from "@/lib/listing/listing";
import { requireMember } from "@/lib/pages/member";
import { listingPageQuery } from "../query";

/**
 * GET /t/<team>/listing/cut.csv — everything the listing cut, whole, for the budget page's
 * download (the page shows 50 of each list). A member's session opens it, as it opens the page;
 * `?cap=&descMax=` give the what-if's lists.
 */
export async function GET(req: NextRequest, { params }: { params: Promise<{ team: string }> }): Promise<Response> {
  const { team: slug } = await params;
  const { app, team } = await requireMember(slug, `/t/${slug}/listing`);
  const query = listingPageQuery(Object.fromEntries(req.nextUrl.searchParams));
  const budget = await listingBudget(app.db, app.catalogs, team, query.whatIf);
  return new Response(cutCsv(budget), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${slug}-listing-cut.csv"`,
      "cache-control": "private, no-store",
    },
  });
}
