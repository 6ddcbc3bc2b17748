import { Socket } from "node:net";

/** The channel the triggers of migration 0020 notify on: a team's row or one of its keys changed. */
export const TEAM_CHANGES_CHANNEL = "skillgate_team_changes";

/** Marks a barrier token on the channel (`TeamChangeFeed.caughtUp`): never a team's id. */
const BARRIER_PREFIX = "barrier:";

/**
 * The notice a transaction sends on the channel when it puts deliveries in the webhook outbox
 * (lib/webhooks/outbox.ts): not a team change. It arrives on every instance once the transaction
 * commits, and wakes their senders, so a delivery goes out at once without the request that made
 * it waiting on anything.
 */
export const OUTBOX_NOTICE = "outbox";

/** A team whose row or keys changed, or "all": changes may have gone unheard (the listening connection dropped or came back). */
export type TeamChange = number | "all";

/**
 * Changes to teams and their keys made by any instance, as the database reports them on commit.
 * Whoever caches what a key authenticates as trusts the cache only while `live`: while nobody is
 * listening, a change would go unheard.
 */
export class TeamChangeFeed {
  private readonly listeners = new Set<(change: TeamChange) => void>();
  private readonly outboxListeners = new Set<() => void>();
  private listening = false;
  /** Barrier tokens this instance sent and waits to hear (`caughtUp`). */
  private readonly awaited = new Map<string, () => void>();
  private barriers = 0;

  get live(): boolean {
    return this.listening;
  }

  subscribe(listener: (change: TeamChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` whenever a committed transaction put deliveries in the outbox (`OUTBOX_NOTICE`). */
  onOutbox(listener: () => void): () => void {
    this.outboxListeners.add(listener);
    return () => this.outboxListeners.delete(listener);
  }

  /**
   * Waits until this feed has heard every notice committed before now: `notify` sends a token on
   * the channel, and notices arrive in commit order. Behind a pooler in transaction mode the pooled
   * connections cannot listen (db/client.ts), so a write that changed a team waits for this before
   * it returns, and a request after it never sees the old team. Gives up after `ms` (the feed is
   * then as late as the listening connection, which the TTL of cached keys bounds). True when the
   * token was heard, false when it gave up or the feed does not listen.
   */
  async caughtUp(notify: (token: string) => Promise<unknown>, ms = 1_000): Promise<boolean> {
    if (!this.listening) return false;
    const token = `${BARRIER_PREFIX}${process.pid}.${++this.barriers}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.awaited.set(token, () => resolve(true));
      timer = setTimeout(() => resolve(false), ms);
      timer.unref();
    });
    try {
      await notify(token);
      return await heard;
    } finally {
      clearTimeout(timer);
      this.awaited.delete(token);
    }
  }

  /** A notice's payload: the id of the team that changed, a barrier token, or the outbox's notice. */
  noticed(payload: string | undefined): void {
    if (payload?.startsWith(BARRIER_PREFIX)) return this.awaited.get(payload)?.();
    if (payload === OUTBOX_NOTICE) {
      for (const listener of this.outboxListeners) listener();
      return;
    }
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

/**
 * Has `client` pass every notice of a team change to `feed`; the LISTEN gives up after `ms`
 * (node-postgres's own `query_timeout`, which its types leave out of a query's config).
 */
export async function listenOn(client: import("pg").ClientBase, feed: TeamChangeFeed, ms?: number): Promise<void> {
  client.on("notification", (notice) => feed.noticed(notice.payload));
  const listen = { text: `listen ${TEAM_CHANGES_CHANNEL}`, query_timeout: ms };
  await client.query(listen);
}

/** How long a stop waits for the listening connection to end cleanly. */
const END_WAIT_MS = 1_000;

/** Whether `work` settles within `ms`. */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
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
      // Its socket is ours (node-postgres's `stream` option): a stop can end it without the server's part in it.
      const socket = new Socket();
      const client = new Client({
        connectionString: url,
        connectionTimeoutMillis: 3_000,
        application_name: "skillgate-listener",
        stream: () => socket,
      });
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
      // A connection to a silent server may never finish ending: a stop waits for it a moment, then
      // drops it (SIGTERM must end the process whatever the server does); a reconnect does not wait.
      const ended = client.end().catch(() => {});
      if (!stopped) await pause();
      else if (!(await settlesWithin(ended, END_WAIT_MS))) socket.destroy();
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
