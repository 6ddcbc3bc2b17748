import { gzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { Field, Root, Type } from "protobufjs/light";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillActivationDays, skillActivationPeople, telemetryDays, telemetryEvents } from "@/db/schema";
import { createApiKey } from "@/lib/auth/api-keys";
import type { Scope } from "@/lib/auth/scopes";
import { trimTelemetry } from "@/lib/telemetry/partitions";
import { utcDay } from "@/lib/usage/rollups";
import type { TeamId } from "@/lib/teams/teams";
import { errorOf, useTestApp } from "../helpers/app";
import { testDbKinds } from "../helpers/db";
import { httpBridge, type Exchange, type HttpBridge } from "../helpers/http-bridge";
import {
  claudeCodeLogs,
  genAiSpans,
  type ClaudeCodeSession,
  type LogSender,
  type Person,
  type Protocol,
  type SkillActivated,
} from "../helpers/telemetry";

/**
 * The OTLP/HTTP receiver (docs/telemetry.md#the-receiver) as an agent meets it: the OpenTelemetry JS SDK's own exporters
 * send Claude Code-shaped records over HTTP (tests/helpers/telemetry.ts) to a real server in front
 * of the app; what they put on the wire and what they got back is kept by the bridge, and the
 * database afterwards — raw events and rollups — is asserted exactly.
 */

const DAY = 86_400_000;

const ANA: Person = { email: "ana@example.com", accountUuid: "0d1c2b3a-0000-4000-8000-00000000000a" };
const BEN: Person = { email: "ben@example.com", accountUuid: "0d1c2b3a-0000-4000-8000-00000000000b" };
const CARO: Person = { email: "caro@example.com", accountUuid: "0d1c2b3a-0000-4000-8000-00000000000c" };

const session = (sessionId: string, person: Person = ANA): ClaudeCodeSession => ({ sessionId, person, sequence: 0 });

/** Noon UTC `days` days before today: whole days away from any midnight the test might cross. */
function daysAgo(days: number): Date {
  const today = new Date(utcDay(new Date()) + "T12:00:00.000Z");
  return new Date(today.getTime() - days * DAY);
}

/** google.rpc.Status, as the OTLP specification describes the body of an error answer. */
const STATUS = new Type("Status").add(new Field("code", 1, "int32")).add(new Field("message", 2, "string"));

/**
 * An Export*ServiceResponse as the OTLP .proto files describe it (partial_success = 1, its
 * rejected count = 1 and error_message = 2), described here apart from the receiver's own schema.
 */
function responseType(signal: "Logs" | "Trace", rejected: string): Type {
  const partial = new Type("PartialSuccess").add(new Field(rejected, 1, "int64")).add(new Field("errorMessage", 2, "string"));
  const response = new Type(`Export${signal}ServiceResponse`).add(new Field("partialSuccess", 1, "PartialSuccess")).add(partial);
  new Root().add(response);
  return response;
}
const RESPONSES = { logs: responseType("Logs", "rejectedLogRecords"), traces: responseType("Trace", "rejectedSpans") };

type Answered = Pick<Exchange, "headers" | "status" | "answer" | "answerHeaders">;

/**
 * An answer's body as plain values. It must come in the request's encoding (the OTLP
 * specification): protobuf for a protobuf request, JSON for anything else.
 */
function answerOf(exchange: Answered, signal: "logs" | "traces" = "logs"): unknown {
  const type = exchange.answerHeaders["content-type"];
  const asked = exchange.headers["content-type"] === "application/x-protobuf" ? "application/x-protobuf" : "application/json";
  expect(type).toBe(asked);
  if (type === "application/json") return JSON.parse(exchange.answer.toString("utf8"));
  if (exchange.status !== 200) return STATUS.toObject(STATUS.decode(exchange.answer));
  const message = RESPONSES[signal];
  return message.toObject(message.decode(exchange.answer), { longs: String });
}

/** A fetch Response to a request of this content type, for answerOf. */
async function exchangeOf(res: Response, contentType: string): Promise<Answered> {
  return {
    headers: { "content-type": contentType },
    status: res.status,
    answer: Buffer.from(await res.arrayBuffer()),
    answerHeaders: Object.fromEntries(res.headers),
  };
}

describe.each(testDbKinds)("the OTLP receiver, on %s", (kind) => {
  const t = useTestApp(kind);
  let bridge: HttpBridge;
  let closing: { close(): Promise<void> }[] = [];

  beforeEach(async () => {
    bridge = await httpBridge();
  });
  afterEach(async () => {
    await Promise.all(closing.map((sender) => sender.close()));
    closing = [];
    await bridge.close();
  });

  const endpoint = () => `${bridge.url}/api/otlp`;

  async function keyWith(scopes: Scope[], teamId: TeamId = t.alpha.team.id): Promise<string> {
    return (await createApiKey(t.app.db, { teamId, name: `scopes ${scopes.join(" ")}`, scopes })).key;
  }

  function logs(key: string, options: { protocol?: Protocol; gzip?: boolean } = {}): LogSender {
    const sender = claudeCodeLogs({ endpoint: endpoint(), key, ...options });
    closing.push(sender);
    return sender;
  }

  function spans(key: string, protocol: Protocol) {
    const sender = genAiSpans({ endpoint: endpoint(), key, protocol });
    closing.push(sender);
    return sender;
  }

  /** Bytes the exporter put on the wire, sent again as it would: same path, type, encoding, body. */
  function resend(exchange: Exchange, key: string): Promise<Response> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": exchange.headers["content-type"]! };
    if (exchange.headers["content-encoding"]) headers["content-encoding"] = exchange.headers["content-encoding"];
    return fetch(`${bridge.url}${exchange.path}`, { method: "POST", headers, body: new Uint8Array(exchange.body) });
  }

  function post(path: string, body: BodyInit, headers: Record<string, string>, key: string): Promise<Response> {
    return fetch(`${bridge.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, ...headers }, body });
  }

  /** What an exporter sends for these records, captured without storing them: its key is refused. */
  async function wireBytes(protocol: Protocol, emit: (sender: LogSender) => void): Promise<Exchange> {
    const sender = logs("sg_not-a-key", { protocol });
    emit(sender);
    await sender.flush();
    const sent = bridge.exchanges().at(-1)!;
    expect(sent.status).toBe(401);
    return sent;
  }

  const events = (teamId: TeamId = t.alpha.team.id) =>
    t.app.db
      .select({
        key: telemetryEvents.eventKey,
        kind: telemetryEvents.kind,
        at: telemetryEvents.at,
        session: telemetryEvents.sessionId,
        prompt: telemetryEvents.promptId,
        skill: telemetryEvents.skillName,
        trigger: telemetryEvents.trigger,
        source: telemetryEvents.skillSource,
        person: telemetryEvents.person,
        text: telemetryEvents.promptText,
      })
      .from(telemetryEvents)
      .where(eq(telemetryEvents.teamId, teamId))
      .orderBy(sql`${telemetryEvents.eventKey} collate "C"`);

  const activationDays = (teamId: TeamId = t.alpha.team.id) =>
    t.app.db
      .select({
        day: skillActivationDays.day,
        skill: skillActivationDays.skillName,
        proactive: skillActivationDays.proactive,
        slash: skillActivationDays.slash,
        nested: skillActivationDays.nested,
      })
      .from(skillActivationDays)
      .where(eq(skillActivationDays.teamId, teamId))
      .orderBy(skillActivationDays.day, sql`${skillActivationDays.skillName} collate "C"`);

  const activationPeople = (teamId: TeamId = t.alpha.team.id) =>
    t.app.db
      .select({ day: skillActivationPeople.day, skill: skillActivationPeople.skillName, person: skillActivationPeople.person })
      .from(skillActivationPeople)
      .where(eq(skillActivationPeople.teamId, teamId))
      .orderBy(
        skillActivationPeople.day,
        sql`${skillActivationPeople.skillName} collate "C"`,
        sql`${skillActivationPeople.person} collate "C"`,
      );

  const receivedDays = (teamId: TeamId = t.alpha.team.id) =>
    t.app.db
      .select({ day: telemetryDays.day, records: telemetryDays.records, prompts: telemetryDays.prompts, ignored: telemetryDays.ignored })
      .from(telemetryDays)
      .where(eq(telemetryDays.teamId, teamId))
      .orderBy(telemetryDays.day);

  const today = () => utcDay(new Date());

  it("takes a batch of 512 records, the exporter's default, in one request, and counts each trigger and person exactly", async () => {
    const key = await keyWith(["telemetry"]);
    const sender = logs(key, { protocol: "http/protobuf" });
    const people = [ANA, BEN, CARO];
    const sessions = people.map((person, i) => session(`session-${i}`, person));
    // Who uses what: one skill only chosen by the model, one only typed, one mixed, one mostly called by other skills.
    const plan = [
      { skill: "systematic-debugging", proactive: 150, slash: 0, nested: 0, people: 3 },
      { skill: "test-driven-development", proactive: 0, slash: 120, nested: 0, people: 1 },
      { skill: "writing-plans", proactive: 60, slash: 40, nested: 20, people: 2 },
      { skill: "scientific-method", proactive: 0, slash: 10, nested: 80, people: 3 },
    ];
    const trigger = { proactive: "claude-proactive", slash: "user-slash", nested: "nested-skill" } as const;
    let sent = 0;
    for (const { skill, people: users, ...counts } of plan) {
      for (const [said, count] of Object.entries(counts) as ["proactive" | "slash" | "nested", number][]) {
        // The first half yesterday, the second the day before; people in turn.
        for (let n = 0; n < count; n++) {
          const at = daysAgo(n < count / 2 ? 1 : 2);
          sender.skillActivated(sessions[n % users]!, { skill, trigger: trigger[said], promptId: `prompt-${sent++}`, at });
        }
      }
    }
    for (let n = 0; n < 32; n++) sender.userPrompt(sessions[n % 3]!, { promptId: `prompt-${n}`, at: daysAgo(n < 16 ? 1 : 2) });
    await sender.flush();

    expect(bridge.requests()).toBe(1);
    const [exchange] = bridge.exchanges();
    expect([exchange!.path, exchange!.headers["content-type"], exchange!.status]).toEqual([
      "/api/otlp/v1/logs",
      "application/x-protobuf",
      200,
    ]);
    expect(answerOf(exchange!)).toEqual({});

    const stored = await events();
    expect(stored.length).toBe(512);
    expect(stored.filter((event) => event.kind === "prompt").length).toBe(32);
    // Every event is known by its session and sequence: three sessions, numbered from 1 without gaps.
    for (const [i] of sessions.entries()) {
      const sequences = stored.filter((event) => event.session === `session-${i}`).map((event) => Number(event.key.split(":")[2]));
      expect(sequences.sort((a, b) => a - b)).toEqual(Array.from({ length: sequences.length }, (_, n) => n + 1));
    }

    expect(await activationDays()).toEqual(
      [2, 1].flatMap((days) =>
        plan
          .map(({ skill, proactive, slash, nested }) => ({
            day: utcDay(daysAgo(days)),
            skill,
            proactive: proactive / 2,
            slash: slash / 2,
            nested: nested / 2,
          }))
          .sort((a, b) => (a.skill < b.skill ? -1 : 1)),
      ),
    );
    expect(await activationPeople()).toEqual(
      [2, 1].flatMap((days) =>
        [...plan]
          .sort((a, b) => (a.skill < b.skill ? -1 : 1))
          .flatMap(({ skill, people: users }) =>
            people.slice(0, users).map((person) => ({ day: utcDay(daysAgo(days)), skill, person: person.email })),
          ),
      ),
    );
    expect(await receivedDays()).toEqual([
      { day: utcDay(daysAgo(2)), records: 0, prompts: 16, ignored: 0 },
      { day: utcDay(daysAgo(1)), records: 0, prompts: 16, ignored: 0 },
      { day: today(), records: 512, prompts: 0, ignored: 0 },
    ]);

    // The usage API reads the same counts from the rollups.
    const usage = (await (await t.call("GET", "/api/v1/usage")).json()) as {
      skills: { name: string; activations: object; people: number; typedOnly: boolean }[];
      prompts: number;
    };
    expect(usage.prompts).toBe(32);
    expect(
      usage.skills
        .filter((row) => plan.some((p) => p.skill === row.name))
        .map(({ name, activations, people: users, typedOnly }) => ({ name, activations, people: users, typedOnly })),
    ).toEqual([
      { name: "systematic-debugging", activations: { proactive: 150, slash: 0, nested: 0 }, people: 3, typedOnly: false },
      { name: "test-driven-development", activations: { proactive: 0, slash: 120, nested: 0 }, people: 1, typedOnly: true },
      { name: "writing-plans", activations: { proactive: 60, slash: 40, nested: 20 }, people: 2, typedOnly: false },
      { name: "scientific-method", activations: { proactive: 0, slash: 10, nested: 80 }, people: 3, typedOnly: true },
    ]);
  });

  it.each([
    ["http/protobuf", false, "application/x-protobuf"],
    ["http/protobuf", true, "application/x-protobuf"],
    ["http/json", false, "application/json"],
    ["http/json", true, "application/json"],
  ] as const)("takes %s with gzip %s as the exporter sends it", async (protocol, gzip, contentType) => {
    const key = await keyWith(["telemetry"]);
    const sender = logs(key, { protocol, gzip });
    const s = session("session-encodings", BEN);
    sender.userPrompt(s, { promptId: "prompt-1", at: daysAgo(1) });
    sender.skillActivated(s, {
      skill: "writing-plans",
      trigger: "user-slash",
      source: "userSettings",
      promptId: "prompt-1",
      at: daysAgo(1),
    });
    sender.skillActivated(s, { skill: "writing-plans", trigger: "claude-proactive", promptId: "prompt-1", at: daysAgo(1) });
    await sender.flush();

    const [exchange] = bridge.exchanges();
    expect(bridge.requests()).toBe(1);
    expect([exchange!.headers["content-type"], exchange!.headers["content-encoding"], exchange!.status]).toEqual([
      contentType,
      gzip ? "gzip" : undefined,
      200,
    ]);
    if (gzip) expect([...exchange!.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    expect(answerOf(exchange!)).toEqual({});
    const at = daysAgo(1);
    const common = { at, session: "session-encodings", prompt: "prompt-1", person: BEN.email, text: null };
    expect(await events()).toEqual([
      { key: "seq:session-encodings:1", kind: "prompt", ...common, skill: null, trigger: null, source: null },
      { key: "seq:session-encodings:2", kind: "activation", ...common, skill: "writing-plans", trigger: "slash", source: "userSettings" },
      {
        key: "seq:session-encodings:3",
        kind: "activation",
        ...common,
        skill: "writing-plans",
        trigger: "proactive",
        source: "projectSettings",
      },
    ]);
    expect(await activationDays()).toEqual([{ day: utcDay(at), skill: "writing-plans", proactive: 1, slash: 1, nested: 0 }]);
    expect(await activationPeople()).toEqual([{ day: utcDay(at), skill: "writing-plans", person: BEN.email }]);
  });

  it("counts a batch sent again once: the same bytes posted twice, and the same session and sequence from another exporter", async () => {
    const key = await keyWith(["telemetry"]);
    const sender = logs(key, { protocol: "http/protobuf", gzip: true });
    const first = session("session-retry");
    sender.skillActivated(first, { skill: "systematic-debugging", trigger: "claude-proactive", promptId: "p1", at: daysAgo(1) });
    sender.skillActivated(first, { skill: "systematic-debugging", trigger: "user-slash", promptId: "p2", at: daysAgo(1) });
    await sender.flush();
    const [original] = bridge.exchanges();
    expect(original!.status).toBe(200);

    // An exporter that timed out before the answer sends the very same bytes again.
    const again = await resend(original!, key);
    expect([again.status, answerOf(await exchangeOf(again, "application/x-protobuf"))]).toEqual([200, {}]);
    // Another exporter of the same session (JSON this time) numbers the same events the same way.
    const other = logs(key, { protocol: "http/json" });
    const same = session("session-retry");
    other.skillActivated(same, { skill: "systematic-debugging", trigger: "claude-proactive", promptId: "p1", at: daysAgo(1) });
    other.skillActivated(same, { skill: "systematic-debugging", trigger: "user-slash", promptId: "p2", at: daysAgo(1) });
    await other.flush();
    expect(bridge.exchanges().map((exchange) => exchange.status)).toEqual([200, 200, 200]);

    expect((await events()).map((event) => [event.key, event.trigger])).toEqual([
      ["seq:session-retry:1", "proactive"],
      ["seq:session-retry:2", "slash"],
    ]);
    expect(await activationDays()).toEqual([{ day: utcDay(daysAgo(1)), skill: "systematic-debugging", proactive: 1, slash: 1, nested: 0 }]);
    expect(await activationPeople()).toEqual([{ day: utcDay(daysAgo(1)), skill: "systematic-debugging", person: ANA.email }]);
    // What arrived is counted as it arrived: three batches of two records.
    expect(await receivedDays()).toEqual([{ day: today(), records: 6, prompts: 0, ignored: 0 }]);
  });

  it("counts a batch that 16 requests race to deliver once", async () => {
    const key = await keyWith(["telemetry"]);
    const s = session("session-race", CARO);
    const wire = await wireBytes("http/protobuf", (sender) => {
      for (let n = 0; n < 50; n++) {
        const said = (["claude-proactive", "user-slash", "nested-skill"] as const)[n % 3]!;
        sender.skillActivated(s, {
          skill: n % 2 ? "writing-plans" : "scientific-method",
          trigger: said,
          promptId: `p${n}`,
          at: daysAgo(1),
        });
      }
      sender.userPrompt(s, { promptId: "p-last", at: daysAgo(1) });
    });
    const answers = await Promise.all(Array.from({ length: 16 }, () => resend(wire, key)));
    expect(answers.map((res) => res.status)).toEqual(Array(16).fill(200));

    expect((await events()).length).toBe(51);
    // n even: scientific-method, triggers by n % 3 over n = 0, 2, …, 48 (25 of them); n odd: writing-plans (25).
    expect(await activationDays()).toEqual([
      { day: utcDay(daysAgo(1)), skill: "scientific-method", proactive: 9, slash: 8, nested: 8 },
      { day: utcDay(daysAgo(1)), skill: "writing-plans", proactive: 8, slash: 9, nested: 8 },
    ]);
    expect(await activationPeople()).toEqual([
      { day: utcDay(daysAgo(1)), skill: "scientific-method", person: CARO.email },
      { day: utcDay(daysAgo(1)), skill: "writing-plans", person: CARO.email },
    ]);
    expect(await receivedDays()).toEqual([
      { day: utcDay(daysAgo(1)), records: 0, prompts: 1, ignored: 0 },
      { day: today(), records: 16 * 51, prompts: 0, ignored: 0 },
    ]);
  });

  it("counts the same events once when two batches hold them in opposite orders and race", async () => {
    const key = await keyWith(["telemetry"]);
    const s = session("session-orders", BEN);
    const wire = await wireBytes("http/json", (sender) => {
      for (let n = 0; n < 200; n++) {
        sender.skillActivated(s, { skill: `skill-${n % 40}`, trigger: "claude-proactive", promptId: `p${n}`, at: daysAgo(1) });
      }
    });
    const request = JSON.parse(wire.body.toString("utf8")) as { resourceLogs: { scopeLogs: { logRecords: unknown[] }[] }[] };
    request.resourceLogs[0]!.scopeLogs[0]!.logRecords.reverse();
    const reversed = { ...wire, body: Buffer.from(JSON.stringify(request)) };
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => resend(i % 2 ? reversed : wire, key)));
    expect(answers.map((res) => res.status)).toEqual(Array(16).fill(200));
    expect((await events()).length).toBe(200);
    const days = await activationDays();
    expect(days.length).toBe(40);
    for (const row of days) expect([row.proactive, row.slash, row.nested]).toEqual([5, 0, 0]);
  });

  it.each(["http/protobuf", "http/json"] as const)(
    "refuses a bad key with 401 and a key without telemetry with 403, in the request's encoding (%s)",
    async (protocol) => {
      const emit = (sender: LogSender) =>
        sender.skillActivated(session("session-auth"), {
          skill: "writing-plans",
          trigger: "claude-proactive",
          promptId: "p1",
          at: daysAgo(1),
        });
      const bad = logs("sg_not-a-key", { protocol });
      emit(bad);
      await bad.flush();
      const readOnly = logs(await keyWith(["read"]), { protocol });
      emit(readOnly);
      await readOnly.flush();

      const [refused, forbidden] = bridge.exchanges();
      expect([refused!.status, refused!.answerHeaders["www-authenticate"]]).toEqual([
        401,
        'Bearer error="invalid_token", error_description="API key not valid or revoked; ask a lead for a new one"',
      ]);
      expect(answerOf(refused!)).toEqual({ code: 16, message: "API key not valid or revoked; ask a lead for a new one" });
      expect(forbidden!.status).toBe(403);
      expect(answerOf(forbidden!)).toEqual({
        code: 7,
        message: 'this API key lacks the "telemetry" scope; ask a lead for a telemetry key',
      });
      if (protocol === "http/json")
        expect(refused!.answer.toString("utf8")).toBe('{"code":16,"message":"API key not valid or revoked; ask a lead for a new one"}');
      // Exporters do not retry what is refused: one request each.
      expect(bridge.requests()).toBe(2);
      expect(await events()).toEqual([]);
      expect(await receivedDays()).toEqual([]);
    },
  );

  it("lets a telemetry key send and nothing else; write and admin keys send too", async () => {
    const telemetry = await keyWith(["telemetry"]);
    const write = await keyWith(["read", "write"]);
    for (const [n, key] of [telemetry, write, t.alpha.key].entries()) {
      const sender = logs(key);
      sender.skillActivated(session(`session-key-${n}`), {
        skill: "writing-plans",
        trigger: "claude-proactive",
        promptId: "p1",
        at: daysAgo(1),
      });
      await sender.flush();
    }
    expect(bridge.exchanges().map((exchange) => exchange.status)).toEqual([200, 200, 200]);
    expect((await events()).map((event) => event.key)).toEqual(["seq:session-key-0:1", "seq:session-key-1:1", "seq:session-key-2:1"]);

    for (const path of ["/api/v1/listing", "/api/v1/usage"]) {
      const res = await t.call("GET", path, { key: telemetry });
      expect(res.status, path).toBe(403);
      expect(await errorOf(res), path).toEqual({
        code: "Forbidden",
        message: 'this API key lacks the "read" scope; ask a lead for a key that has it',
      });
    }
    const missing = await fetch(`${bridge.url}/api/otlp/v1/logs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect([missing.status, await missing.text()]).toEqual([
      401,
      '{"code":16,"message":"send the team\'s API key as Authorization: Bearer <key>"}',
    ]);
  });

  it("refuses what cannot be decoded with 400, other types with 415, and stores nothing", async () => {
    const key = await keyWith(["telemetry"]);
    const wire = await wireBytes("http/protobuf", (sender) => {
      for (let n = 0; n < 20; n++) {
        sender.skillActivated(session("session-bad"), {
          skill: "writing-plans",
          trigger: "claude-proactive",
          promptId: `p${n}`,
          at: daysAgo(1),
        });
      }
    });
    const truncated = await post(
      "/api/otlp/v1/logs",
      new Uint8Array(wire.body.subarray(0, wire.body.length - 7)),
      { "content-type": "application/x-protobuf" },
      key,
    );
    expect(truncated.status).toBe(400);
    const status = answerOf(await exchangeOf(truncated, "application/x-protobuf")) as { code: number; message: string };
    expect(status.code).toBe(3);
    // protobufjs checks each embedded message's length against the body before reading it, and says no more.
    expect(status.message).toBe("the body is not a protobuf ExportLogsServiceRequest: index out of range");

    const cases: [string, Record<string, string>, BodyInit, number, { code: number; message: string }][] = [
      [
        "/api/otlp/v1/logs",
        { "content-type": "application/json" },
        "[1, 2]",
        400,
        { code: 3, message: "the body is not an OTLP JSON ExportLogsServiceRequest object" },
      ],
      [
        "/api/otlp/v1/traces",
        { "content-type": "application/json" },
        '"spans"',
        400,
        { code: 3, message: "the body is not an OTLP JSON ExportTraceServiceRequest object" },
      ],
      [
        "/api/otlp/v1/logs",
        { "content-type": "application/json" },
        '{"resourceLogs": [',
        400,
        { code: 3, message: expect.stringMatching(/^the body is not JSON: /) as unknown as string },
      ],
      [
        "/api/otlp/v1/logs",
        { "content-type": "application/json", "content-encoding": "gzip" },
        "{}",
        400,
        { code: 3, message: "the body is not valid gzip: incorrect header check" },
      ],
      [
        "/api/otlp/v1/logs",
        { "content-type": "text/plain" },
        "skill_activated",
        415,
        { code: 3, message: "send OTLP as application/x-protobuf or application/json (got text/plain); gRPC is not served here" },
      ],
      [
        "/api/otlp/v1/logs",
        { "content-type": "application/grpc" },
        new Uint8Array(wire.body),
        415,
        { code: 3, message: "send OTLP as application/x-protobuf or application/json (got application/grpc); gRPC is not served here" },
      ],
      [
        "/api/otlp/v1/logs",
        { "content-type": "application/x-protobuf", "content-encoding": "br" },
        new Uint8Array(wire.body),
        415,
        { code: 3, message: "content-encoding br is not supported; send gzip or nothing" },
      ],
    ];
    for (const [path, headers, body, expected, answer] of cases) {
      const res = await post(path, body, headers, key);
      expect(res.status, JSON.stringify(headers)).toBe(expected);
      expect(answerOf(await exchangeOf(res, headers["content-type"]!)), JSON.stringify(headers)).toEqual(answer);
    }
    expect(await events()).toEqual([]);
    expect(await receivedDays()).toEqual([]);
  });

  it("refuses a body over 8 MiB with 413, declared or streamed, and a small gzip that unzips past it", async () => {
    const key = await keyWith(["telemetry"]);
    const tooLarge = { code: 8, message: "request body is larger than 8 MiB; send less at a time" };
    const declared = await post("/api/otlp/v1/logs", Buffer.alloc(8 * 1024 * 1024 + 1), { "content-type": "application/x-protobuf" }, key);
    expect([declared.status, answerOf(await exchangeOf(declared, "application/x-protobuf"))]).toEqual([413, tooLarge]);
    expect(bridge.exchanges().at(-1)!.headers["content-length"]).toBe(String(8 * 1024 * 1024 + 1));

    // Chunked, with no length said: counted as it streams.
    const chunk = Buffer.alloc(1024 * 1024);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 9; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const chunked = await fetch(`${bridge.url}/api/otlp/v1/logs`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/x-protobuf" },
      body: streamed,
      duplex: "half",
    } as RequestInit);
    expect([chunked.status, answerOf(await exchangeOf(chunked, "application/x-protobuf"))]).toEqual([413, tooLarge]);
    expect(bridge.exchanges().at(-1)!.headers["content-length"]).toBeUndefined();

    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024 + 1));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const unzipped = await post("/api/otlp/v1/logs", bomb, { "content-type": "application/json", "content-encoding": "gzip" }, key);
    expect([unzipped.status, await unzipped.text()]).toEqual([
      413,
      '{"code":8,"message":"the body unzips to more than 8 MiB; send smaller batches"}',
    ]);
    // Exactly at the bound is taken: an empty request padded to 8 MiB.
    const padded = gzipSync(Buffer.from("{}" + " ".repeat(8 * 1024 * 1024 - 2)));
    const atBound = await post("/api/otlp/v1/logs", padded, { "content-type": "application/json", "content-encoding": "gzip" }, key);
    expect([atBound.status, await atBound.text()]).toEqual([200, "{}"]);
    expect(await events()).toEqual([]);
  });

  it("stores tool results and API requests, ignores and counts accepted tool decisions and API errors, with no partial success", async () => {
    const key = await keyWith(["telemetry"]);
    const sender = logs(key, { protocol: "http/json" });
    const s = session("session-noise", BEN);
    sender.other(s, "api_request", {
      model: "claude-sonnet-4-5",
      cost_usd: 0.0123,
      duration_ms: 1840,
      input_tokens: 1200,
      output_tokens: 310,
    });
    sender.skillActivated(s, { skill: "writing-plans", trigger: "nested-skill", promptId: "p1", at: daysAgo(1) });
    sender.other(s, "tool_result", { tool_name: "Read", success: "true", duration_ms: 12 });
    sender.other(s, "tool_decision", { tool_name: "Bash", decision: "accept", source: "config" });
    sender.other(s, "api_error", { model: "claude-sonnet-4-5", error: "overloaded", status_code: 529 });
    await sender.flush();

    const [exchange] = bridge.exchanges();
    expect(exchange!.status).toBe(200);
    expect(exchange!.answer.toString("utf8")).toBe("{}");
    expect((await events()).map((event) => [event.key, event.skill, event.trigger])).toEqual([
      ["seq:session-noise:1", null, null],
      ["seq:session-noise:2", "writing-plans", "nested"],
      ["seq:session-noise:3", null, null],
    ]);
    expect(await receivedDays()).toEqual([{ day: today(), records: 5, prompts: 0, ignored: 2 }]);
  });

  it.each(["http/protobuf", "http/json"] as const)(
    "answers a skill_activated it cannot use with partialSuccess, and stores the rest of the batch (%s)",
    async (protocol) => {
      const key = await keyWith(["telemetry"]);
      const sender = logs(key, { protocol });
      const s = session("session-partial");
      sender.skillActivated(s, { skill: "writing-plans", trigger: "claude-proactive", promptId: "p1", at: daysAgo(1) });
      sender.other(s, "skill_activated", { invocation_trigger: "claude-proactive", "prompt.id": "p2" });
      sender.other(s, "skill_activated", { "skill.name": "writing-plans", invocation_trigger: "model-guess", "prompt.id": "p3" });
      sender.other(s, "skill_activated", { "skill.name": "writing-plans", "prompt.id": "p4" });
      sender.skillActivated(s, { skill: "writing-plans", trigger: "user-slash", promptId: "p5", at: daysAgo(1) });
      await sender.flush();

      const [exchange] = bridge.exchanges();
      expect(exchange!.status).toBe(200);
      expect(answerOf(exchange!)).toEqual({
        partialSuccess: {
          rejectedLogRecords: "3",
          errorMessage:
            "skill_activated without skill.name; skill_activated with an unknown invocation_trigger (model-guess); skill_activated with an unknown invocation_trigger (none)",
        },
      });
      expect((await events()).map((event) => [event.key, event.trigger])).toEqual([
        ["seq:session-partial:1", "proactive"],
        ["seq:session-partial:5", "slash"],
      ]);
      expect(await activationDays()).toEqual([{ day: utcDay(daysAgo(1)), skill: "writing-plans", proactive: 1, slash: 1, nested: 0 }]);
      expect(await receivedDays()).toEqual([{ day: today(), records: 5, prompts: 0, ignored: 0 }]);
    },
  );

  it("takes a record whose event.timestamp PostgreSQL cannot hold at the record's time, and the rest of its batch", async () => {
    const sender = logs(await keyWith(["telemetry"]), { protocol: "http/json" });
    const s = session("session-times");
    for (const stamp of ["-000100-01-01T00:00:00.000Z", "+100000-01-01T00:00:00.000Z", "1969-12-31T23:59:59.000Z", "yesterday"]) {
      sender.other(s, "skill_activated", {
        "skill.name": "writing-plans",
        invocation_trigger: "claude-proactive",
        "event.timestamp": stamp,
      });
    }
    await sender.flush();
    const [exchange] = bridge.exchanges();
    expect([exchange!.status, answerOf(exchange!)]).toEqual([200, {}]);
    const stored = await events();
    expect(stored.map((event) => event.key)).toEqual([
      "seq:session-times:1",
      "seq:session-times:2",
      "seq:session-times:3",
      "seq:session-times:4",
    ]);
    // The exporter stamped each record as it was emitted, moments ago.
    for (const event of stored) expect(utcDay(event.at)).toBe(today());
  });

  it("stores custom_skill and names outside the registry as sent; usage shows them as unnamed and outside the registry", async () => {
    const sender = logs(await keyWith(["telemetry"]));
    const s = session("session-names", ANA);
    const activate = (skill: string, trigger: SkillActivated["trigger"]) =>
      sender.skillActivated(s, { skill, trigger, promptId: "p1", source: "plugin", at: daysAgo(1) });
    activate("custom_skill", "claude-proactive");
    activate("custom_skill", "user-slash");
    activate("deploy-notes", "claude-proactive");
    activate("deploy-notes", "nested-skill");
    activate("deploy-notes", "nested-skill");
    activate("pr-review", "user-slash");
    activate("systematic-debugging", "claude-proactive");
    await sender.flush();

    expect(await activationDays()).toEqual([
      { day: utcDay(daysAgo(1)), skill: "custom_skill", proactive: 1, slash: 1, nested: 0 },
      { day: utcDay(daysAgo(1)), skill: "deploy-notes", proactive: 1, slash: 0, nested: 2 },
      { day: utcDay(daysAgo(1)), skill: "pr-review", proactive: 0, slash: 1, nested: 0 },
      { day: utcDay(daysAgo(1)), skill: "systematic-debugging", proactive: 1, slash: 0, nested: 0 },
    ]);
    const usage = (await (await t.call("GET", "/api/v1/usage")).json()) as {
      skills: { name: string; activations: object }[];
      unnamed: number;
      outsideRegistry: { name: string; activations: number }[];
    };
    expect(usage.unnamed).toBe(2);
    expect(usage.outsideRegistry).toEqual([
      { name: "deploy-notes", activations: 3 },
      { name: "pr-review", activations: 1 },
    ]);
    expect(usage.skills.map((row) => [row.name, row.activations])).toEqual([
      ["systematic-debugging", { proactive: 1, slash: 0, nested: 0 }],
    ]);
  });

  it("keeps prompt texts only while the team's storePrompts is on, and never Claude Code's placeholder", async () => {
    const sender = logs(await keyWith(["telemetry"]));
    const s = session("session-prompts", BEN);
    sender.userPrompt(s, { promptId: "p1", prompt: "why does the login test flake on CI?", at: daysAgo(1) });
    await sender.flush();
    const on = await t.call("PATCH", "/api/v1/settings", { json: { storePrompts: true } });
    expect([on.status, ((await on.json()) as { storePrompts: boolean }).storePrompts]).toEqual([200, true]);
    sender.userPrompt(s, { promptId: "p2", prompt: "write a plan for the \u0000billing migration", at: daysAgo(1) });
    sender.userPrompt(s, { promptId: "p3", prompt: "<REDACTED>", at: daysAgo(1) });
    sender.userPrompt(s, { promptId: "p4", at: daysAgo(1) });
    await sender.flush();
    expect(bridge.exchanges().map((exchange) => exchange.status)).toEqual([200, 200]);

    expect((await events()).map((event) => [event.key, event.kind, event.prompt, event.text])).toEqual([
      ["seq:session-prompts:1", "prompt", "p1", null],
      ["seq:session-prompts:2", "prompt", "p2", "write a plan for the billing migration"],
      ["seq:session-prompts:3", "prompt", "p3", null],
      ["seq:session-prompts:4", "prompt", "p4", null],
    ]);
    expect(await receivedDays()).toEqual([
      { day: utcDay(daysAgo(1)), records: 0, prompts: 4, ignored: 0 },
      { day: today(), records: 4, prompts: 0, ignored: 0 },
    ]);
  });

  it("keeps each team's telemetry to itself: the same session and sequence from two teams counts once in each", async () => {
    const alphaSender = logs(await keyWith(["telemetry"]));
    const betaSender = logs(await keyWith(["telemetry"], t.beta.team.id), { protocol: "http/json" });
    const event = { skill: "writing-plans", trigger: "claude-proactive", promptId: "p1", at: daysAgo(1) } as const;
    alphaSender.skillActivated(session("session-shared"), event);
    alphaSender.skillActivated(session("session-alpha-only"), { ...event, skill: "scientific-method" });
    betaSender.skillActivated(session("session-shared", CARO), event);
    await alphaSender.flush();
    await betaSender.flush();

    expect((await events(t.alpha.team.id)).map((row) => [row.key, row.skill, row.person])).toEqual([
      ["seq:session-alpha-only:1", "scientific-method", ANA.email],
      ["seq:session-shared:1", "writing-plans", ANA.email],
    ]);
    expect((await events(t.beta.team.id)).map((row) => [row.key, row.skill, row.person])).toEqual([
      ["seq:session-shared:1", "writing-plans", CARO.email],
    ]);
    expect(await activationDays(t.beta.team.id)).toEqual([
      { day: utcDay(daysAgo(1)), skill: "writing-plans", proactive: 1, slash: 0, nested: 0 },
    ]);
    expect(await activationPeople(t.beta.team.id)).toEqual([{ day: utcDay(daysAgo(1)), skill: "writing-plans", person: CARO.email }]);
    const betaUsage = (await (await t.call("GET", "/api/v1/usage", { key: t.beta.key })).json()) as {
      skills: { name: string; activations: object }[];
    };
    expect(betaUsage.skills.map((row) => [row.name, row.activations])).toEqual([["writing-plans", { proactive: 1, slash: 0, nested: 0 }]]);
  });

  it("trims raw events past each team's telemetryDays and keeps the daily counts; an event older than that is not stored", async () => {
    const senders = new Map<number, ReturnType<typeof logs>>();
    for (const [teamId, protocol] of [
      [t.alpha.team.id, "http/protobuf"],
      [t.beta.team.id, "http/json"],
    ] as const) {
      const sender = logs(await keyWith(["telemetry"], teamId), { protocol });
      senders.set(teamId, sender);
      const s = session(`session-${teamId}`);
      for (const days of [20, 10, 1]) {
        sender.skillActivated(s, { skill: "writing-plans", trigger: "claude-proactive", promptId: `p${days}`, at: daysAgo(days) });
      }
      sender.userPrompt(s, { promptId: "p20", at: daysAgo(20) });
      await sender.flush();
    }
    const before = { alpha: await activationDays(t.alpha.team.id), beta: await activationDays(t.beta.team.id) };
    expect(before.alpha.map((row) => [row.day, row.proactive])).toEqual([20, 10, 1].map((days) => [utcDay(daysAgo(days)), 1]));
    expect((await t.call("PATCH", "/api/v1/settings", { json: { telemetryDays: 15 } })).status).toBe(200);
    expect((await t.call("PATCH", "/api/v1/settings", { key: t.beta.key, json: { telemetryDays: 5 } })).status).toBe(200);

    // alpha keeps 15 days: the two events of 20 days ago go; beta keeps 5: those of 20 and 10 days ago.
    // Sent more than a week late, they wait in the default partition, so they go as rows
    // (dropping partitions: tests/integration/telemetry-partitions.test.ts).
    expect(await trimTelemetry(t.app.db)).toEqual({ droppedDays: [], deletedRows: 5 });
    expect((await events(t.alpha.team.id)).map((row) => row.at)).toEqual([daysAgo(10), daysAgo(1)]);
    expect((await events(t.beta.team.id)).map((row) => row.at)).toEqual([daysAgo(1)]);
    expect({ alpha: await activationDays(t.alpha.team.id), beta: await activationDays(t.beta.team.id) }).toEqual(before);
    expect((await activationPeople(t.beta.team.id)).length).toBe(3);
    expect((await receivedDays(t.beta.team.id)).map((row) => [row.day, row.prompts])).toEqual([
      [utcDay(daysAgo(20)), 1],
      [today(), 0],
    ]);
    expect(await trimTelemetry(t.app.db)).toEqual({ droppedDays: [], deletedRows: 0 });

    // Sent now, an event older than alpha's 15 days would be trimmed at once, and counted again if sent again: it is not stored.
    const late = senders.get(t.alpha.team.id)!;
    late.skillActivated(session("a-session-kept-offline"), {
      skill: "writing-plans",
      trigger: "claude-proactive",
      promptId: "p16",
      at: daysAgo(16),
    });
    await late.flush();
    expect((await events(t.alpha.team.id)).map((row) => row.at)).toEqual([daysAgo(10), daysAgo(1)]);
    expect(await activationDays(t.alpha.team.id)).toEqual(before.alpha);
  });

  it.each(["http/protobuf", "http/json"] as const)(
    "counts a GenAI span naming a skill as a proactive activation of its conversation, ignores other spans, and a span sent again once (%s)",
    async (protocol) => {
      const key = await keyWith(["telemetry"]);
      const sender = spans(key, protocol);
      // One span at a time, so the first request is the first span's.
      for (const [conversation, skill, person] of [
        ["conversation-1", "writing-plans", BEN.email],
        ["conversation-1", null, BEN.email],
        ["conversation-2", "deploy-notes", CARO.email],
      ] as const) {
        sender.executeTool(conversation, skill, person);
        await sender.flush();
      }

      const sent = bridge.exchanges();
      expect(sent.map((exchange) => [exchange.path, exchange.status])).toEqual(Array(3).fill(["/api/otlp/v1/traces", 200]));
      expect(answerOf(sent[0]!, "traces")).toEqual({});
      const again = await resend(sent[0]!, key);
      expect(again.status).toBe(200);

      const stored = (await events()).sort((a, b) => (a.skill! < b.skill! ? -1 : 1));
      expect(
        stored.map(({ kind, session: conversation, skill, trigger, person, source }) => ({
          kind,
          conversation,
          skill,
          trigger,
          person,
          source,
        })),
      ).toEqual([
        {
          kind: "activation",
          conversation: "conversation-2",
          skill: "deploy-notes",
          trigger: "proactive",
          person: CARO.email,
          source: "other-agent",
        },
        {
          kind: "activation",
          conversation: "conversation-1",
          skill: "writing-plans",
          trigger: "proactive",
          person: BEN.email,
          source: "other-agent",
        },
      ]);
      for (const event of stored) expect(event.key).toMatch(/^span:[0-9a-f]{32}:[0-9a-f]{16}$/);
      expect(utcDay(stored[0]!.at)).toBe(today());
      expect(await activationDays()).toEqual([
        { day: today(), skill: "deploy-notes", proactive: 1, slash: 0, nested: 0 },
        { day: today(), skill: "writing-plans", proactive: 1, slash: 0, nested: 0 },
      ]);
      expect(await receivedDays()).toEqual([{ day: today(), records: 4, prompts: 0, ignored: 1 }]);
    },
  );

  it("answers 503 with Retry-After while the database cannot take the batch, and the exporter's own retry then lands it once", async () => {
    // PostgreSQL's "the database system is starting up" (57P03), once: what a restarting server answers.
    await t.app.db.execute(sql`create sequence otlp_outage_once`);
    await t.app.db.execute(
      sql.raw(`create function otlp_outage_once() returns trigger language plpgsql as $$
        begin
          if nextval('otlp_outage_once') = 1 then
            raise exception 'the database system is starting up' using errcode = '57P03';
          end if;
          return null;
        end $$`),
    );
    await t.app.db.execute(
      sql`create trigger otlp_outage_once before insert on telemetry_events for each statement execute function otlp_outage_once()`,
    );
    try {
      const sender = logs(await keyWith(["telemetry"]));
      sender.skillActivated(session("session-outage"), { skill: "writing-plans", trigger: "user-slash", promptId: "p1", at: daysAgo(1) });
      await sender.flush();

      const [refused, retried] = bridge.exchanges();
      expect([refused!.status, refused!.answerHeaders["retry-after"]]).toEqual([503, "5"]);
      expect(answerOf(refused!)).toEqual({ code: 14, message: "the database is unavailable; try again shortly" });
      expect(retried!.status).toBe(200);
      expect(retried!.body.equals(refused!.body)).toBe(true);
      expect(bridge.requests()).toBe(2);
    } finally {
      await t.app.db.execute(sql`drop trigger otlp_outage_once on telemetry_events`);
      await t.app.db.execute(sql`drop function otlp_outage_once()`);
      await t.app.db.execute(sql`drop sequence otlp_outage_once`);
    }
    expect((await events()).map((event) => [event.key, event.trigger])).toEqual([["seq:session-outage:1", "slash"]]);
    expect(await activationDays()).toEqual([{ day: utcDay(daysAgo(1)), skill: "writing-plans", proactive: 0, slash: 1, nested: 0 }]);
    expect(await receivedDays()).toEqual([{ day: today(), records: 1, prompts: 0, ignored: 0 }]);
  });
});

describe.each(testDbKinds)("the OTLP receiver's rate limit, on %s", (kind) => {
  const t = useTestApp(kind, { rateLimitPerMinute: 1 });

  it("answers 429 with Retry-After past a key's limit, as a google.rpc.Status", async () => {
    const post = () => t.call("POST", "/api/otlp/v1/logs", { body: "{}", headers: { "content-type": "application/json" } });
    const first = await post();
    expect([first.status, await first.text()]).toEqual([200, "{}"]);
    const refused = await post();
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get("retry-after"));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({ code: 8, message: `too many requests for this API key; retry in ${seconds} s` });
  });
});
