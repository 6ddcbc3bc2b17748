import { isDatabaseOutage } from "@/db/outage";
import { getApp, provideBoot } from "../current-app";
import { boot } from "./boot";
import { env } from "../env";
import { publicUrlWarnings } from "../public-url";
import { addressesFromSockets } from "../client-address";

/**
 * Opens, migrates and seeds the database once, in the server process, before requests are served.
 * A start-up that cannot work (the embedded database held by another process, bad configuration)
 * stops the process with its reason, rather than leave a server up that answers 500 to everything.
 * An unreachable database is not such a reason: requests answer 503 until it is back (docs/outages.md#outages-and-stalls).
 */
export async function startUp(): Promise<void> {
  // The configuration is read first: a setting that cannot work stops the server before it says anything else.
  try {
    for (const warning of startUpWarnings()) console.warn(`skillgate: warning: ${warning}`);
    // Before any request is read: the counts per address must never see a client's own X-Forwarded-For.
    addressesFromSockets(env());
  } catch (error) {
    cannotStart(error);
  }
  provideBoot(boot);
  try {
    await getApp();
  } catch (error) {
    if (isDatabaseOutage(error)) {
      console.error(
        `skillgate: the database is unreachable at start-up; requests answer 503 until it is back (${(error as Error).message})`,
      );
      return;
    }
    cannotStart(error);
  }
}

function cannotStart(error: unknown): never {
  console.error(`skillgate: cannot start: ${(error as Error).message}`);
  process.exit(1);
}

/**
 * What the operator should know before the server takes requests: a setting that works but is
 * risky or incomplete. Said first, before the database steps, so it is not lost in their output.
 */
function startUpWarnings(): string[] {
  // `npm start` runs `next start` without -H: Next listens on every interface.
  return publicUrlWarnings(env(), undefined);
}
