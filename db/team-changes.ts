/** The channel the triggers of migration 0020 notify on: a team's row or one of its keys changed. */
export const TEAM_CHANGES_CHANNEL = "skillgate_team_changes";

/** A team whose row or keys changed, or "all": changes may have gone unheard (the listening connection dropped or came back). */
export type TeamChange = number | "all";

/**
 * Changes to teams and their keys made by any instance, as the database reports them on commit.
 * Whoever caches what a key authenticates as trusts the cache only while `live`: while nobody is
 * listening, a change would go unheard.
 */
export class TeamChangeFeed {
  private readonly listeners = new Set<(change: TeamChange) => void>();
  private listening = false;

  get live(): boolean {
    return this.listening;
  }

  subscribe(listener: (change: TeamChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A notice's payload: the id of the team that changed. */
  noticed(payload: string | undefined): void {
    const id = Number(payload);
    this.emit(Number.isSafeInteger(id) ? id : "all");
  }

  /** The listening connection came up or went down: anything cached before may be stale. */
  setLive(live: boolean): void {
    if (this.listening === live) return;
    this.listening = live;
    this.emit("all");
  }

  private emit(change: TeamChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** Has `client` pass every notice of a team change to `feed`. */
export async function listenOn(client: import("pg").ClientBase, feed: TeamChangeFeed): Promise<void> {
  client.on("notification", (notice) => feed.noticed(notice.payload));
  await client.query(`listen ${TEAM_CHANGES_CHANNEL}`);
}

/** How long the listening connection waits before connecting again after it dropped or could not connect. */
const RECONNECT_MS = 500;
/** How often the listening connection proves it still reaches the server, and how long an answer may take. */
const PING_EVERY_MS = 5_000;
/** node-postgres reads `query_timeout` from a query's config; its types omit it. */
const PING = { text: "select 1", query_timeout: 3_000 };

/**
 * Listens on a PostgreSQL server for as long as it runs, connecting again whenever the connection
 * drops: the feed is live only while it is connected. A server that goes silent without closing the
 * connection (a network that drops packets) is noticed by a ping within eight seconds.
 */
export function listenOnServer(Client: typeof import("pg").Client, url: string, feed: TeamChangeFeed): { stop(): Promise<void> } {
  let stopped = false;
  let wake = () => {};
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, RECONNECT_MS);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const run = async () => {
    while (!stopped) {
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 3_000, application_name: "skillgate-listener" });
      // A dropped connection also ends the client, which the loop waits for.
      client.on("error", () => {});
      const lost = new Promise<void>((resolve) => {
        client.once("end", resolve);
        wake = resolve;
      });
      try {
        await client.connect();
        await listenOn(client, feed);
      } catch {
        void client.end().catch(() => {});
        await pause();
        continue;
      }
      if (stopped) {
        await client.end().catch(() => {});
        break;
      }
      feed.setLive(true);
      const ping = setInterval(() => client.query(PING).catch(() => wake()), PING_EVERY_MS);
      await lost;
      clearInterval(ping);
      feed.setLive(false);
      // A connection to a silent server may never finish ending: only a clean stop waits for it.
      const ended = client.end().catch(() => {});
      if (stopped) await ended;
      else await pause();
    }
  };
  const running = run();
  return {
    stop: async () => {
      stopped = true;
      wake();
      await running;
    },
  };
}
