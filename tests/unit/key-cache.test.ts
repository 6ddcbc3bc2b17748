import { describe, expect, it } from "vitest";
import { TeamChangeFeed } from "@/db/team-changes";
import { hashApiKey, type AuthTeamRow } from "@/lib/auth/api-keys";
import { KeyAuthCache } from "@/lib/auth/key-cache";

interface Row extends AuthTeamRow {
  key_id: number;
  scopes: string[];
}

/** The database's side: the keys it knows, the queries it was asked, and a way to hold a query's answer back. */
function fakeDatabase(keys: Record<string, { keyId: number; teamId: number }>) {
  const byHash = new Map(Object.entries(keys).map(([key, value]) => [hashApiKey(key), value]));
  const asked: string[] = [];
  let held: Promise<void> | null = null;
  return {
    asked,
    /** A server that answers: never found away. */
    health: { away: false, answeredAt: Date.now() },
    /** The next queries answer only once `release` is called. */
    hold(): () => void {
      let release = () => {};
      held = new Promise((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    query: async <T>(_text: string, params: unknown[]): Promise<T[]> => {
      const hash = String(params[0]);
      asked.push(hash);
      if (held) await held;
      const known = byHash.get(hash);
      if (!known) return [];
      const row: Row = {
        key_id: known.keyId,
        scopes: ["read"],
        team_id: known.teamId,
        slug: `team-${known.teamId}`,
        listing_cap: 8000,
        desc_max: 60,
        load_hint: "skill_view",
        auto_promote: false,
        catalog_revision: asked.length,
        drafts_revision: 0,
      };
      return [row as T];
    },
  };
}

const KEYS = { sg_one: { keyId: 1, teamId: 10 }, sg_two: { keyId: 2, teamId: 20 } };

function liveFeed(): TeamChangeFeed {
  const feed = new TeamChangeFeed();
  feed.setLive(true);
  return feed;
}

describe("the App's cache of what API keys authenticate as", () => {
  it("reads a key from the database once while changes are heard, and hands out the same frozen answer", async () => {
    const database = fakeDatabase(KEYS);
    const cache = new KeyAuthCache(database, liveFeed());
    const first = await cache.authenticate("sg_one");
    const second = await cache.authenticate("sg_one");
    expect(database.asked).toHaveLength(1);
    expect(second).toBe(first);
    expect(first).toMatchObject({ keyId: 1, team: { id: 10, catalogRevision: 1 } });
    expect(Object.isFrozen(first) && Object.isFrozen(first?.team) && Object.isFrozen(first?.scopes)).toBe(true);
  });

  it("reads the database on every request while nobody listens, and where the driver cannot listen", async () => {
    const quiet = fakeDatabase(KEYS);
    const notListening = new KeyAuthCache(quiet, new TeamChangeFeed());
    await notListening.authenticate("sg_one");
    await notListening.authenticate("sg_one");
    expect(quiet.asked).toHaveLength(2);

    const neon = fakeDatabase(KEYS);
    const noFeed = new KeyAuthCache(neon, null);
    await noFeed.authenticate("sg_one");
    await noFeed.authenticate("sg_one");
    expect(neon.asked).toHaveLength(2);
  });

  it("forgets the keys of a team whose row or keys changed, and only that team's", async () => {
    const database = fakeDatabase(KEYS);
    const feed = liveFeed();
    const cache = new KeyAuthCache(database, feed);
    await cache.authenticate("sg_one");
    await cache.authenticate("sg_two");
    feed.noticed("10");
    const again = await cache.authenticate("sg_one");
    await cache.authenticate("sg_two");
    expect(database.asked).toEqual([hashApiKey("sg_one"), hashApiKey("sg_two"), hashApiKey("sg_one")]);
    expect(again?.team.catalogRevision).toBe(3);
  });

  it("does not keep a read that a change overtook: it may hold what the change replaced", async () => {
    const database = fakeDatabase(KEYS);
    const feed = liveFeed();
    const cache = new KeyAuthCache(database, feed);
    const release = database.hold();
    const overtaken = cache.authenticate("sg_one");
    feed.noticed("10");
    release();
    expect(await overtaken).toMatchObject({ keyId: 1 });
    await cache.authenticate("sg_one");
    await cache.authenticate("sg_one");
    expect(database.asked).toHaveLength(2);
  });

  it("forgets everything when the listening connection drops and again when it is back, and after a notice it cannot read", async () => {
    const database = fakeDatabase(KEYS);
    const feed = liveFeed();
    const cache = new KeyAuthCache(database, feed);
    await cache.authenticate("sg_one");
    feed.setLive(false);
    await cache.authenticate("sg_one");
    feed.setLive(true);
    await cache.authenticate("sg_one");
    await cache.authenticate("sg_one");
    expect(database.asked).toHaveLength(3);
    feed.noticed("not a team");
    await cache.authenticate("sg_one");
    expect(database.asked).toHaveLength(4);
  });

  it("never keeps an unknown key, so random keys cannot fill it", async () => {
    const database = fakeDatabase(KEYS);
    const cache = new KeyAuthCache(database, liveFeed());
    expect(await cache.authenticate("sg_unknown")).toBeNull();
    expect(await cache.authenticate("sg_unknown")).toBeNull();
    expect(database.asked).toHaveLength(2);
  });
});
